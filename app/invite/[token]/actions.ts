"use server";

import { redirect } from "next/navigation";
import { signIn, signOut } from "@/lib/auth";
import { currentUser } from "@/lib/auth/session";
import { isAppError } from "@/lib/errors";
import { acceptInvitationAsNewUser, acceptInvitationAsUser } from "@/lib/guests/accept-invitation";
import { portalPath } from "@/lib/portals/links";

function field(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}

function back(token: string, message: string): never {
  redirect(`/invite/${encodeURIComponent(token)}?error=${encodeURIComponent(message)}`);
}

/** A new guest sets a name and password (creating the account), is signed in and lands on the portal. */
export async function createAccountAndAccept(formData: FormData): Promise<void> {
  const token = field(formData, "token");
  const password = field(formData, "password");
  if (password !== field(formData, "confirm")) back(token, "The two passwords differ");
  let accepted;
  try {
    accepted = await acceptInvitationAsNewUser({ token, name: field(formData, "name"), password });
  } catch (e) {
    if (isAppError(e)) back(token, e.message);
    throw e;
  }
  // signIn redirects by throwing.
  await signIn("credentials", { email: accepted.email, password, redirectTo: portalPath(accepted.orgId, accepted.portalId) });
}

/** The signed-in user accepts an invitation sent to their address and lands on the portal. */
export async function acceptAsSignedIn(formData: FormData): Promise<void> {
  const token = field(formData, "token");
  const user = await currentUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/invite/${token}`)}`);
  let accepted;
  try {
    accepted = await acceptInvitationAsUser({ token, userId: user.id });
  } catch (e) {
    if (isAppError(e)) back(token, e.message);
    throw e;
  }
  redirect(portalPath(accepted.orgId, accepted.portalId));
}

/** Signed in as someone else: sign out and come back to the invitation. */
export async function signOutForInvitation(formData: FormData): Promise<void> {
  await signOut({ redirectTo: `/invite/${encodeURIComponent(field(formData, "token"))}` });
}
