"use client";

import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { FormAction, FormState } from "@/lib/web/form-state";

export type InviteFormState = FormState<{ name: string }>;

/** A new guest creates an account for the invited address; errors are shown at their fields. */
export function CreateAccountForm({
  action,
  token,
  email,
  defaultName,
  minPasswordLength,
  submitLabel = "Create account and open the portal",
}: {
  action: FormAction<InviteFormState>;
  token: string;
  email: string;
  defaultName: string;
  minPasswordLength: number;
  /** The member invitation (/join) says "join" instead. */
  submitLabel?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const errors = state.fieldErrors ?? {};
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <p>Create your account for {email}.</p>
      <Input label="Your name" id="name" name="name" autoComplete="name" defaultValue={state.values?.name ?? defaultName} required error={errors.name} />
      <Input
        label="Password"
        id="password"
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={minPasswordLength}
        required
        error={errors.password}
      />
      <Input
        label="Repeat the password"
        id="confirm"
        name="confirm"
        type="password"
        autoComplete="new-password"
        minLength={minPasswordLength}
        required
        error={errors.confirm}
      />
      <Button type="submit" className="w-full" disabled={pending}>
        {submitLabel}
      </Button>
    </form>
  );
}

/** The invited user, signed in, accepts. */
export function AcceptForm({
  action,
  token,
  email,
  submitLabel = "Accept and open the portal",
}: {
  action: FormAction<InviteFormState>;
  token: string;
  email: string;
  submitLabel?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="space-y-4">
      <input type="hidden" name="token" value={token} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <p>You are signed in as {email}.</p>
      <Button type="submit" className="w-full" disabled={pending}>
        {submitLabel}
      </Button>
    </form>
  );
}
