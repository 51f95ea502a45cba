"use client";

import { useActionState, useState } from "react";
import { useFormStatus } from "react-dom";
import { SecretReveal } from "@/components/oauth/secret-reveal";
import type { ClientActionState, FormAction } from "@/components/oauth/state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

function SubmitButton({ children, variant }: { children: string; variant: "secondary" | "danger" }) {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" variant={variant} disabled={pending}>
      {children}
    </Button>
  );
}

/**
 * A destructive action behind a second, explicit confirmation in the page (not a browser dialog),
 * so the consequence is spelled out next to the button.
 */
function ConfirmedAction({
  id,
  label,
  confirmLabel,
  warning,
  action,
  variant,
  result,
}: {
  id: string;
  label: string;
  confirmLabel: string;
  warning: string;
  action: (formData: FormData) => void;
  variant: "secondary" | "danger";
  /** The action's latest state: a new one means it finished, so the confirmation closes. */
  result: ClientActionState;
}) {
  const [confirming, setConfirming] = useState(false);
  const [seen, setSeen] = useState(result);
  if (result !== seen) {
    setSeen(result);
    setConfirming(false);
  }
  if (!confirming) {
    return (
      <Button type="button" variant="secondary" onClick={() => setConfirming(true)}>
        {label}
      </Button>
    );
  }
  return (
    <form action={action} className="flex flex-wrap items-center gap-2 rounded-md bg-subtle p-2">
      <input type="hidden" name="id" value={id} />
      <span className="text-sm text-fg-2">{warning}</span>
      <SubmitButton variant={variant}>{confirmLabel}</SubmitButton>
      <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
        Cancel
      </Button>
    </form>
  );
}

export function ClientActions({
  id,
  name,
  rotate,
  remove,
}: {
  id: string;
  name: string;
  rotate: FormAction<ClientActionState>;
  remove: FormAction<ClientActionState>;
}) {
  const [rotated, rotateAction] = useActionState(rotate, {});
  const [removed, removeAction] = useActionState(remove, {});
  const [dismissed, setDismissed] = useState<string | null>(null);
  const secret = rotated.secret && rotated.secret !== dismissed ? rotated.secret : null;
  const error = rotated.error ?? removed.error;

  return (
    <div className="space-y-3">
      {secret ? <SecretReveal title={`New secret for “${name}”`} secret={secret} onDone={() => setDismissed(secret)} /> : null}
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-wrap items-start gap-2">
        <ConfirmedAction
          id={id}
          label="Rotate secret"
          confirmLabel="Rotate now"
          warning={`The current secret of “${name}” stops working at once.`}
          action={rotateAction}
          variant="secondary"
          result={rotated}
        />
        <ConfirmedAction
          id={id}
          label="Delete"
          confirmLabel="Delete client"
          warning={`Delete “${name}”? Every access it was granted is revoked.`}
          action={removeAction}
          variant="danger"
          result={removed}
        />
      </div>
    </div>
  );
}
