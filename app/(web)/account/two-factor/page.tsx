import type { Metadata } from "next";
import Link from "next/link";
import { TwoFactorSetup } from "@/components/account/two-factor-setup";
import { ActionForm } from "@/components/settings/action-form";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { listUserOrganizations } from "@/lib/access/organizations";
import { requireUser } from "@/lib/auth/session";
import { twoFactorStatus } from "@/lib/auth/two-factor";
import { confirmTotpAction, disableTwoFactorAction, startTotpAction } from "./actions";

export const metadata: Metadata = { title: "Two-factor authentication" };

/** TOTP two-factor authentication for the signed-in user: set up, or turn off with a code. */
export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { required } = await searchParams;
  const user = await requireUser("/account/two-factor");
  const [status, orgs] = await Promise.all([twoFactorStatus(user.id), listUserOrganizations(user.id)]);
  const home = orgs[0] ? `/org/${orgs[0].orgId}` : "/";
  return (
    <main className="mx-auto max-w-3xl space-y-6 px-4 py-6 md:py-8">
      <Link href={home} className="text-sm text-brand underline">
        Back to Client Portals
      </Link>
      <div>
        <h1 className="text-2xl font-semibold">Two-factor authentication</h1>
        <p className="mt-1 text-sm text-slate-600">
          With two-factor authentication on, signing in as {user.email} takes your password and a code from an authenticator app on your phone.
        </p>
      </div>
      {required && !status.enabledAt ? <Alert>Your organization requires two-factor authentication. Turn it on to continue.</Alert> : null}
      <Card>
        {status.enabledAt ? (
          <div className="space-y-4">
            <p className="text-sm" data-testid="two-factor-on">
              On since {status.enabledAt.toISOString().slice(0, 10)}. {status.recoveryCodesLeft} unused recovery codes.
            </p>
            <ActionForm action={disableTwoFactorAction} submitLabel="Turn off" variant="danger">
              <Input label="Current code or a recovery code" id="disable-code" name="code" autoComplete="one-time-code" required />
            </ActionForm>
          </div>
        ) : status.hasPassword ? (
          <TwoFactorSetup start={startTotpAction} confirm={confirmTotpAction} />
        ) : (
          <p className="text-sm">
            You sign in with emailed links. To use two-factor authentication, first choose a password (
            <Link className="text-brand underline" href="/sign-in/forgot">
              set a password
            </Link>
            ).
          </p>
        )}
      </Card>
    </main>
  );
}
