import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AcceptForm, CreateAccountForm } from "@/components/invite/accept-forms";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { signInPath } from "@/lib/auth/safe-return";
import { currentUser } from "@/lib/auth/session";
import { MIN_PASSWORD_LENGTH } from "@/lib/guests/accept-invitation";
import { findInvitation } from "@/lib/guests/find-invitation";
import { acceptAsSignedIn, createAccountAndAccept, signOutForInvitation } from "./actions";

export const metadata: Metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand-ink">Client Portals</h1>
      {children}
    </main>
  );
}

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await findInvitation(token);
  const returnTo = `/invite/${encodeURIComponent(token)}`;

  // Unknown links are a real 404 (./not-found.tsx); used and expired ones are answered with 410 by
  // proxy.ts before this page runs. Should one expire between the two, it is gone here as well.
  if (view.status !== "valid") notFound();

  const user = await currentUser();
  const heading = `${view.orgName} invited you to ${view.portalName}`;
  return (
    <Shell>
      <Card title={heading}>
        {user && user.email.toLowerCase() === view.email ? (
          <AcceptForm action={acceptAsSignedIn} token={token} email={user.email} />
        ) : user ? (
          <form action={signOutForInvitation} className="space-y-4">
            <input type="hidden" name="token" value={token} />
            <p>
              This invitation is for {view.email}, but you are signed in as {user.email}. Sign out, then open the link again to accept it as {view.email}.
            </p>
            <Button type="submit" variant="secondary" className="w-full">
              Sign out
            </Button>
          </form>
        ) : view.hasPassword ? (
          <div className="space-y-4">
            <p>An account exists for {view.email}. Sign in to accept the invitation.</p>
            <Link className="underline" href={signInPath(returnTo)}>
              Sign in to accept
            </Link>
          </div>
        ) : (
          <CreateAccountForm
            action={createAccountAndAccept}
            token={token}
            email={view.email}
            defaultName={view.userName ?? ""}
            minPasswordLength={MIN_PASSWORD_LENGTH}
          />
        )}
      </Card>
    </Shell>
  );
}
