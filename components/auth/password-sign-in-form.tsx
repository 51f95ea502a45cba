"use client";

import { useActionState, useEffect, useRef, type ReactNode } from "react";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { PasskeyButton } from "@/components/auth/passkey-button";
import { askFor, isSecondFactor, signInMessage } from "@/components/auth/sign-in-messages";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";

/**
 * What a refused password sign-in gives back: the reason (see sign-in-messages.ts), the email
 * typed, and for a second factor asked for, the factors the account has.
 */
export interface PasswordSignInState {
  reason?: string;
  email?: string;
  factors?: string[];
}

/**
 * The "Sign in" card: the email and password form, then `footer`. A refused sign-in answers in
 * place: the message, the email as typed and the focus on the (emptied) password field; a second
 * factor asked for adds the passkey button and/or the code field, as the account has them, and
 * hides `alternative` (the passkey-alone card) meanwhile.
 */
export function PasswordSignInForm({
  action,
  startPasskey,
  callbackUrl,
  initial,
  footer,
  alternative,
}: {
  action: (state: PasswordSignInState, form: FormData) => Promise<PasswordSignInState>;
  startPasskey: (alone: boolean) => Promise<PublicKeyCredentialRequestOptionsJSON>;
  callbackUrl: string;
  /** The second factor the page was opened asking for (`?error=second_factor&factors=…`); its message is the page's. */
  initial: { reason?: string; factors?: string[] };
  footer: ReactNode;
  alternative: ReactNode;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const password = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state.reason) password.current?.focus();
  }, [state]);
  const ask = state.reason ? askFor(state.reason, state.factors) : askFor(initial.reason, initial.factors);
  const secondFactor = isSecondFactor(state.reason ?? initial.reason);
  return (
    <>
      <Card title="Sign in">
        <form action={formAction} className="space-y-4">
          {state.reason ? <Alert>{signInMessage(state.reason, state.factors)}</Alert> : null}
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <Input label="Email" id="email" name="email" type="email" autoComplete="email" required defaultValue={state.email} />
          <PasswordInput ref={password} label="Password" id="password" name="password" autoComplete="current-password" required />
          {ask.passkey ? <PasskeyButton start={startPasskey} alone={false} label="Use your passkey" variant="primary" /> : null}
          {ask.code ? <Input label="Authentication code" id="code" name="code" autoComplete="one-time-code" inputMode="text" required={!ask.passkey} /> : null}
          {ask.passkey && !ask.code ? null : (
            <Button type="submit" className="w-full" variant={ask.passkey ? "secondary" : "primary"} disabled={pending}>
              {ask.passkey ? "Sign in with the code" : "Sign in"}
            </Button>
          )}
        </form>
        {footer}
      </Card>
      {secondFactor ? null : alternative}
    </>
  );
}
