"use client";

import { useRef, useState } from "react";
import { startAuthentication, type PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/browser";
import { Button, type ButtonVariant } from "@/components/ui/button";

/**
 * A passkey button inside a sign-in form: asks the server for a challenge (`start`), lets the
 * browser's passkey dialog sign it, puts the answer in the form's `passkey` field and submits the
 * form. `alone`: the passkey is the whole sign-in (and must verify the user); otherwise it is the
 * second factor beside the email and password typed in the same form.
 */
export function PasskeyButton({
  start,
  alone,
  label,
  variant = "secondary",
}: {
  start: (alone: boolean) => Promise<PublicKeyCredentialRequestOptionsJSON>;
  alone: boolean;
  label: string;
  variant?: ButtonVariant;
}) {
  const answer = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function use() {
    const form = answer.current?.form;
    if (!form || !answer.current) return;
    // The email and password typed beside it are checked first (second factor).
    if (!alone && !form.reportValidity()) return;
    setProblem(null);
    setBusy(true);
    try {
      const optionsJSON = await start(alone);
      answer.current.value = JSON.stringify(await startAuthentication({ optionsJSON }));
    } catch {
      setBusy(false);
      setProblem("The passkey was not used (cancelled or timed out). Try again, or sign in another way.");
      return;
    }
    form.requestSubmit();
  }

  return (
    <div className="space-y-2">
      <input ref={answer} type="hidden" name="passkey" defaultValue="" />
      <Button type="button" variant={variant} className="w-full" disabled={busy} onClick={use}>
        {label}
      </Button>
      {problem ? (
        <p role="alert" className="text-sm text-danger">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
