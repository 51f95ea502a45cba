import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { currentUser } from "@/lib/auth/session";
import { MIN_PASSWORD_LENGTH } from "@/lib/guests/accept-invitation";
import { findInvitation } from "@/lib/guests/find-invitation";
import { acceptAsSignedIn, createAccountAndAccept, signOutForInvitation } from "./actions";

export const metadata: Metadata = { title: "Invitation" };
export const dynamic = "force-dynamic";

function Shell({ children }: { children: React.ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand">Client Portals</h1>
      {children}
    </main>
  );
}

export default async function InvitationPage({
  params,
  searchParams,
}: {
  params: Promise<{ token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { token } = await params;
  const query = await searchParams;
  const error = typeof query.error === "string" ? query.error.slice(0, 200) : null;
  const view = await findInvitation(token);
  const returnTo = `/invite/${encodeURIComponent(token)}`;

  if (view.status === "unknown") {
    return (
      <Shell>
        <Card title="Invitation not found">
          <p>This invitation link is not valid. Check that you opened the whole link from the email, or ask for a new invitation.</p>
        </Card>
      </Shell>
    );
  }
  if (view.status !== "valid") {
    return (
      <Shell>
        <Card title={view.status === "expired" ? "Invitation expired" : "Invitation already used"}>
          <p>
            {view.status === "expired"
              ? `This invitation to ${view.portalName} (${view.orgName}) has expired. Ask ${view.orgName} to invite you again.`
              : `This invitation to ${view.portalName} (${view.orgName}) was already accepted.`}
          </p>
          <p className="mt-4">
            <Link className="underline" href="/sign-in">Sign in</Link>
          </p>
        </Card>
      </Shell>
    );
  }

  const user = await currentUser();
  const heading = `${view.orgName} invited you to ${view.portalName}`;
  return (
    <Shell>
      {error ? <Alert>{error}</Alert> : null}
      <Card title={heading}>
        {user && user.email.toLowerCase() === view.email ? (
          <form action={acceptAsSignedIn} className="space-y-4">
            <input type="hidden" name="token" value={token} />
            <p>You are signed in as {user.email}.</p>
            <Button type="submit" className="w-full">Accept and open the portal</Button>
          </form>
        ) : user ? (
          <form action={signOutForInvitation} className="space-y-4">
            <input type="hidden" name="token" value={token} />
            <p>
              This invitation is for {view.email}, but you are signed in as {user.email}. Sign out, then open the link again to accept it as {view.email}.
            </p>
            <Button type="submit" variant="secondary" className="w-full">Sign out</Button>
          </form>
        ) : view.hasPassword ? (
          <div className="space-y-4">
            <p>An account exists for {view.email}. Sign in to accept the invitation.</p>
            <Link className="underline" href={`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`}>Sign in to accept</Link>
          </div>
        ) : (
          <form action={createAccountAndAccept} className="space-y-4">
            <input type="hidden" name="token" value={token} />
            <p>Create your account for {view.email} to open the portal.</p>
            <Input label="Your name" id="name" name="name" autoComplete="name" defaultValue={view.userName ?? ""} required />
            <Input label="Password" id="password" name="password" type="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
            <Input label="Repeat the password" id="confirm" name="confirm" type="password" autoComplete="new-password" minLength={MIN_PASSWORD_LENGTH} required />
            <Button type="submit" className="w-full">Create account and open the portal</Button>
          </form>
        )}
      </Card>
    </Shell>
  );
}
