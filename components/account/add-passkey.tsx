"use client";

import { useActionState } from "react";
import { startRegistration, WebAuthnError, type PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/browser";
import type { SettingsState } from "@/components/settings/action-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import type { FormAction } from "@/lib/web/form-state";

/** What the form says when the person cancels or no authenticator answers in time. */
const PASSKEY_NOT_USED = "No passkey was made (cancelled or timed out). Try again when your device asks.";

/**
 * Adding a passkey: the name the user gives it, then the browser's passkey dialog (options from
 * `start`), then the authenticator's answer to `finish`, which keeps it.
 */
export function AddPasskey({
  start,
  finish,
}: {
  start: () => Promise<{ options: PublicKeyCredentialCreationOptionsJSON } | { error: string }>;
  finish: FormAction<SettingsState>;
}) {
  const [state, add, pending] = useActionState(async (prev: SettingsState, formData: FormData): Promise<SettingsState> => {
    const started = await start();
    if ("error" in started) return { error: started.error };
    try {
      formData.set("answer", JSON.stringify(await startRegistration({ optionsJSON: started.options })));
    } catch (e) {
      const again = e instanceof WebAuthnError && e.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED";
      return { error: again ? "This device already holds a passkey for your account." : PASSKEY_NOT_USED };
    }
    return finish(prev, formData);
  }, {});
  return (
    <form action={add} className="space-y-3">
      <Input
        label="Name of the new passkey"
        id="passkey-name"
        name="name"
        maxLength={60}
        required
        placeholder="e.g. Work laptop"
        error={state.fieldErrors?.["name"]}
      />
      <Button type="submit" disabled={pending}>
        Add a passkey
      </Button>
      {state.error ? <Alert>{state.error}</Alert> : state.done ? <Alert tone="success">{state.done}</Alert> : null}
    </form>
  );
}
