"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { InviteFormState } from "@/components/invite/accept-forms";
import { signIn, signOut } from "@/lib/auth";
import { signInPath } from "@/lib/auth/safe-return";
import { currentUser } from "@/lib/auth/session";
import { acceptInvitationAsNewUser, acceptInvitationAsUser } from "@/lib/guests/accept-invitation";
import { guestPortalPath } from "@/lib/links";
import { formAction } from "@/lib/web/org-action";

const invitePath = (token: string) => `/invite/${encodeURIComponent(token)}`;
const tokenForm = z.object({ token: z.string() });

/** A new guest sets a name and password (creating the account), is signed in and lands on the portal. */
export const createAccountAndAccept = formAction(
  {
    input: tokenForm.extend({ name: z.string(), password: z.string(), confirm: z.string() }),
    values: (formData) => ({ name: String(formData.get("name") ?? "") }),
    fields: ["name", "password", "confirm"],
  },
  async ({ token, name, password, confirm }): Promise<InviteFormState> => {
    if (password !== confirm) return { fieldErrors: { confirm: "The two passwords differ" }, values: { name } };
    const accepted = await acceptInvitationAsNewUser({ token, name, password });
    // signIn redirects by throwing.
    await signIn("credentials", { email: accepted.email, password, redirectTo: guestPortalPath(accepted.orgId, accepted.portalId) });
    return {};
  },
);

/** The signed-in user accepts an invitation sent to their address and lands on the portal. */
export const acceptAsSignedIn = formAction({ input: tokenForm }, async ({ token }): Promise<InviteFormState> => {
  const user = await currentUser();
  if (!user) redirect(signInPath(invitePath(token)));
  const accepted = await acceptInvitationAsUser({ token, userId: user.id });
  redirect(guestPortalPath(accepted.orgId, accepted.portalId));
});

/** Signed in as someone else: sign out and come back to the invitation. */
export async function signOutForInvitation(formData: FormData): Promise<void> {
  await signOut({ redirectTo: invitePath(String(formData.get("token") ?? "")) });
}
