"use client";

import { useActionState, useEffect, useRef } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { PasswordInput } from "@/components/ui/password-input";

/** What a refused password sign-in gives back: the reason (a key of the page's messages) and the email typed. */
export interface PasswordSignInState {
  reason?: string;
  email?: string;
}

/**
 * The email and password form. A refused sign-in answers in place: the message, the email as typed
 * and the focus on the (emptied) password field; a second factor asked for adds the code field.
 */
export function PasswordSignInForm({
  action,
  callbackUrl,
  askCode: askCodeFirst,
  messages,
}: {
  action: (state: PasswordSignInState, form: FormData) => Promise<PasswordSignInState>;
  callbackUrl: string;
  /** The page was opened asking for the code (`?error=second_factor`). */
  askCode: boolean;
  messages: Record<string, string>;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const password = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state.reason) password.current?.focus();
  }, [state]);
  const askCode = askCodeFirst || state.reason === "second_factor" || state.reason === "second_factor_wrong";
  return (
    <form action={formAction} className="space-y-4">
      {state.reason ? <Alert>{messages[state.reason] ?? "Sign-in failed. Try again."}</Alert> : null}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Input label="Email" id="email" name="email" type="email" autoComplete="email" required defaultValue={state.email} />
      <PasswordInput ref={password} label="Password" id="password" name="password" autoComplete="current-password" required />
      {askCode ? <Input label="Authentication code" id="code" name="code" autoComplete="one-time-code" inputMode="text" required /> : null}
      <Button type="submit" className="w-full" disabled={pending}>
        Sign in
      </Button>
    </form>
  );
}
