import type { Metadata } from "next";
import Link from "next/link";
import { AccountPage } from "@/components/account/account-page";
import { ACCOUNT_PAGES } from "@/components/account/account-pages";
import { TwoFactorSetup } from "@/components/account/two-factor-setup";
import { ActionForm } from "@/components/settings/action-form";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { requireUser } from "@/lib/auth/session";
import { AddPasskey } from "@/components/account/add-passkey";
import { listPasskeys } from "@/lib/auth/passkeys";
import { twoFactorStatus } from "@/lib/auth/two-factor";
import { confirmTotpAction, disableTwoFactorAction, finishPasskeyAction, removePasskeyAction, startPasskeyAction, startTotpAction } from "./actions";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: ACCOUNT_PAGES.twoFactor.name };

const SET_A_PASSWORD = (
  <Link className="text-brand-ink underline" href="/sign-in/forgot">
    set a password
  </Link>
);

/**
 * The signed-in user's second factors: passkeys (add, list, remove) and TOTP (set up, or turn off
 * with a code). Either one counts for an organization that requires two-factor.
 */
export default async function TwoFactorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { required } = await searchParams;
  const user = await requireUser("/account/two-factor");
  const [status, passkeys] = await Promise.all([twoFactorStatus(user.id), listPasskeys({ userId: user.id })]);
  return (
    <AccountPage
      title={ACCOUNT_PAGES.twoFactor.name}
      intro={
        <>
          With two-factor authentication on, signing in as {user.email} takes your password and a second factor: a passkey (your device&apos;s fingerprint, face
          or PIN, or a security key) or a code from an authenticator app on your phone.
        </>
      }
    >
      {required && !status.enabledAt && passkeys.length === 0 ? (
        <Alert>Your organization requires two-factor authentication. Add a passkey or set up an authenticator app to continue.</Alert>
      ) : null}
      <Card title="Passkeys">
        <div className="space-y-4">
          {passkeys.length > 0 ? (
            <ul className="divide-y divide-line-soft" aria-label="Passkeys">
              {passkeys.map((p) => (
                <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="passkey">
                  <div className="text-sm">
                    <p className="font-medium">{p.name}</p>
                    <p className="text-fg-muted">
                      Added <Time value={p.createdAt} format="date" /> ·{" "}
                      {p.lastUsedAt ? (
                        <>
                          last used <Time value={p.lastUsedAt} format="relative" />
                        </>
                      ) : (
                        "not used yet"
                      )}
                      {p.deviceType === "multiDevice" ? " · synced" : ""}
                    </p>
                  </div>
                  <ActionForm
                    action={removePasskeyAction}
                    submitLabel="Remove"
                    variant="secondary"
                    inline
                    label={`Remove passkey ${p.name}`}
                    confirm={{
                      title: `Remove the passkey "${p.name}"?`,
                      description:
                        passkeys.length === 1 && !status.enabledAt
                          ? "It is your only second factor: after this, signing in takes your password alone, and an organization that requires two-factor will ask you to set one up again."
                          : "You will no longer be able to sign in with it.",
                      confirmLabel: "Remove passkey",
                    }}
                  >
                    <input type="hidden" name="passkeyId" value={p.id} />
                  </ActionForm>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-fg-muted">No passkeys yet.</p>
          )}
          {status.hasPassword ? (
            <AddPasskey start={startPasskeyAction} finish={finishPasskeyAction} />
          ) : (
            <p className="text-sm">You sign in with emailed links. To add a passkey, first choose a password ({SET_A_PASSWORD}).</p>
          )}
        </div>
      </Card>
      <Card title="Authenticator app">
        {status.enabledAt ? (
          <div className="space-y-4">
            <p className="text-sm" data-testid="two-factor-on">
              On since <Time value={status.enabledAt} format="date" />. {status.recoveryCodesLeft} unused recovery codes.
            </p>
            <ActionForm action={disableTwoFactorAction} submitLabel="Turn off" variant="danger">
              <Input label="Current code or a recovery code" id="disable-code" name="code" autoComplete="one-time-code" required />
            </ActionForm>
          </div>
        ) : status.hasPassword ? (
          <TwoFactorSetup start={startTotpAction} confirm={confirmTotpAction} />
        ) : (
          <p className="text-sm">You sign in with emailed links. To use two-factor authentication, first choose a password ({SET_A_PASSWORD}).</p>
        )}
      </Card>
    </AccountPage>
  );
}
