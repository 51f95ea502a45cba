"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { FormAction, FormState } from "@/lib/web/form-state";

export type TwoFactorSetupState = FormState<{ secret: string; uri: string }> & { secret?: string; uri?: string; recoveryCodes?: string[] };

/**
 * Setting up TOTP: a secret to add to the authenticator app (its key and its otpauth:// link),
 * then the app's first code, then the recovery codes, shown once.
 */
export function TwoFactorSetup({ start, confirm }: { start: FormAction<TwoFactorSetupState>; confirm: FormAction<TwoFactorSetupState> }) {
  const [started, startAction, starting] = useActionState(start, {});
  const [confirmed, confirmAction, confirming] = useActionState(confirm, {});
  const secret = confirmed.values?.secret ?? started.secret;
  const uri = confirmed.values?.uri ?? started.uri;

  if (confirmed.recoveryCodes) {
    return (
      <div className="space-y-3">
        <Alert tone="success">Two-factor authentication is on.</Alert>
        <p className="text-sm">Keep these recovery codes somewhere safe. Each signs you in once when you do not have your phone. They are not shown again.</p>
        <ul className="grid grid-cols-2 gap-2 font-mono text-sm" aria-label="Recovery codes">
          {confirmed.recoveryCodes.map((c) => (
            <li key={c} data-testid="recovery-code">
              {c}
            </li>
          ))}
        </ul>
      </div>
    );
  }
  if (!secret || !uri) {
    return (
      <form action={startAction} className="space-y-3">
        {started.error ? <Alert>{started.error}</Alert> : null}
        <Button type="submit" disabled={starting}>
          Set up two-factor authentication
        </Button>
      </form>
    );
  }
  return (
    <form action={confirmAction} className="space-y-3">
      <p className="text-sm">In your authenticator app, add an account with this key (or open the link on your phone), then enter the 6-digit code it shows.</p>
      <p className="font-mono text-sm break-all" data-testid="totp-secret">
        {secret}
      </p>
      <p className="text-sm break-all">
        <a className="text-brand-ink underline" href={uri}>
          {uri}
        </a>
      </p>
      <input type="hidden" name="secret" value={secret} />
      <input type="hidden" name="uri" value={uri} />
      <Input label="Code from the app" id="totp-code" name="code" autoComplete="one-time-code" required />
      {confirmed.error ? <Alert>{confirmed.error}</Alert> : null}
      <Button type="submit" disabled={confirming}>
        Turn on
      </Button>
    </form>
  );
}
