"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { InviteFormState } from "@/components/invite/accept-forms";
import { signIn, signOut } from "@/lib/auth";
import { signInPath } from "@/lib/auth/safe-return";
import { currentUser } from "@/lib/auth/session";
import { acceptMemberInvitationAsNewUser, acceptMemberInvitationAsUser } from "@/lib/members/member-invitations";
import { formAction } from "@/lib/web/org-action";

const joinPath = (token: string) => `/join/${encodeURIComponent(token)}`;
const tokenForm = z.object({ token: z.string() });

/** A new member sets a name and password, is signed in and lands on the organization's portals. */
export const createAccountAndJoin = formAction(
  {
    input: tokenForm.extend({ name: z.string(), password: z.string(), confirm: z.string() }),
    values: (formData) => ({ name: String(formData.get("name") ?? "") }),
    fields: ["name", "password", "confirm"],
  },
  async ({ token, name, password, confirm }): Promise<InviteFormState> => {
    if (password !== confirm) return { fieldErrors: { confirm: "The two passwords differ" }, values: { name } };
    const joined = await acceptMemberInvitationAsNewUser({ token, name, password });
    await signIn("credentials", { email: joined.email, password, redirectTo: `/org/${joined.orgId}` });
    return {};
  },
);

/** The signed-in user joins with an invitation sent to their address. */
export const joinAsSignedIn = formAction({ input: tokenForm }, async ({ token }): Promise<InviteFormState> => {
  const user = await currentUser();
  if (!user) redirect(signInPath(joinPath(token)));
  const joined = await acceptMemberInvitationAsUser({ token, userId: user.id });
  redirect(`/org/${joined.orgId}`);
});

export async function signOutForJoin(formData: FormData): Promise<void> {
  await signOut({ redirectTo: joinPath(String(formData.get("token") ?? "")) });
}
