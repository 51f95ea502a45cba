import type { Metadata } from "next";
import Link from "next/link";
import { AcceptForm, CreateAccountForm } from "@/components/invite/accept-forms";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { signInPath } from "@/lib/auth/safe-return";
import { currentUser } from "@/lib/auth/session";
import { findMemberInvitation, MIN_PASSWORD_LENGTH } from "@/lib/members/member-invitations";
import { createAccountAndJoin, joinAsSignedIn, signOutForJoin } from "./actions";

export const metadata: Metadata = { title: "Join an organization" };
export const dynamic = "force-dynamic";

const GONE = {
  unknown: [
    "Invitation not found",
    "This invitation link is not valid. Check that you opened the whole link from the email, or ask an admin for a new invitation.",
  ],
  expired: ["Invitation expired", "This invitation has expired. Ask an admin of the organization to invite you again."],
  accepted: ["Invitation already used", "This invitation was already accepted. Sign in to open the organization."],
} as const;

/** The link of a member invitation: create an account, or sign in, then join. */
export default async function JoinPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await findMemberInvitation(token);
  const returnTo = `/join/${encodeURIComponent(token)}`;
  const user = view.status === "valid" ? await currentUser() : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand-ink">Client Portals</h1>
      {view.status !== "valid" ? (
        <Card title={GONE[view.status][0]}>
          <p>{GONE[view.status][1]}</p>
          <p className="mt-4">
            <Link className="text-brand-ink underline" href="/sign-in">
              Sign in
            </Link>
          </p>
        </Card>
      ) : (
        <Card title={`Join ${view.orgName} as ${view.role === "admin" ? "an admin" : "a member"}`}>
          {user && user.email.toLowerCase() === view.email ? (
            <AcceptForm action={joinAsSignedIn} token={token} email={user.email} submitLabel="Join the organization" />
          ) : user ? (
            <form action={signOutForJoin} className="space-y-4">
              <input type="hidden" name="token" value={token} />
              <p>
                This invitation is for {view.email}, but you are signed in as {user.email}. Sign out, then open the link again to join as {view.email}.
              </p>
              <Button type="submit" variant="secondary" className="w-full">
                Sign out
              </Button>
            </form>
          ) : view.hasPassword ? (
            <div className="space-y-4">
              <p>An account exists for {view.email}. Sign in to join.</p>
              <Link className="text-brand-ink underline" href={signInPath(returnTo)}>
                Sign in to join
              </Link>
            </div>
          ) : (
            <CreateAccountForm
              action={createAccountAndJoin}
              token={token}
              email={view.email}
              defaultName={view.userName ?? ""}
              minPasswordLength={MIN_PASSWORD_LENGTH}
              submitLabel="Create account and join"
            />
          )}
        </Card>
      )}
    </main>
  );
}
