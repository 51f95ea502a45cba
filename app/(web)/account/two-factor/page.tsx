import type { Metadata } from "next";
import Link from "next/link";
import { AccountPage } from "@/components/account/account-page";
import { TwoFactorSetup } from "@/components/account/two-factor-setup";
import { ActionForm } from "@/components/settings/action-form";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { requireUser } from "@/lib/auth/session";
import { twoFactorStatus } from "@/lib/auth/two-factor";
import { confirmTotpAction, disableTwoFactorAction, startTotpAction } from "./actions";

export const metadata: Metadata = { title: "Two-factor authentication" };

/** TOTP two-factor authentication for the signed-in user: set up, or turn off with a code. */
export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { required } = await searchParams;
  const user = await requireUser("/account/two-factor");
  const status = await twoFactorStatus(user.id);
  return (
    <AccountPage
      userId={user.id}
      title="Two-factor authentication"
      intro={<>With two-factor authentication on, signing in as {user.email} takes your password and a code from an authenticator app on your phone.</>}
    >
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
    </AccountPage>
  );
}
