"use client";

import { useActionState } from "react";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { FormAction, FormState } from "@/lib/web/form-state";

export type ResetPasswordState = FormState<Record<string, never>>;

/** The new password, twice; errors at their fields, an expired link offers a fresh one. */
export function ResetPasswordForm({ action, token, minPasswordLength }: { action: FormAction<ResetPasswordState>; token: string; minPasswordLength: number }) {
  const [state, formAction, pending] = useActionState(action, {});
  const errors = state.fieldErrors ?? {};
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      {state.error ? (
        <Alert>
          {state.error}.{" "}
          <Link className="underline" href="/sign-in/forgot">
            Send me a new link
          </Link>
        </Alert>
      ) : null}
      <Input
        label="New password"
        id="password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={minPasswordLength}
        required
        error={errors.password}
        hint={`At least ${minPasswordLength} characters.`}
      />
      <Input
        label="Repeat the new password"
        id="confirm"
        name="confirm"
        type="password"
        autoComplete="new-password"
        minLength={minPasswordLength}
        required
        error={errors.confirm}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        Save the password and sign in
      </Button>
    </form>
  );
}
