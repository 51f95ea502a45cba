"use client";

import { useActionState, useCallback, useState } from "react";
import { useFormStatus } from "react-dom";
import type { FormAction, WebhookActionState, WebhookFormState, WebhookFormValues } from "@/components/webhooks/state";
import { WebhookForm } from "@/components/webhooks/webhook-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

function Submit({ children, pendingLabel, variant = "secondary" }: { children: string; pendingLabel: string; variant?: "secondary" | "danger" }) {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" variant={variant} disabled={pending}>
      {pending ? pendingLabel : children}
    </Button>
  );
}

function TestResult({ test }: { test: NonNullable<WebhookActionState["test"]> }) {
  return (
    <Alert tone={test.success ? "success" : "error"}>
      Test {test.success ? "delivered" : "failed"}
      {test.statusCode !== null ? `: HTTP ${test.statusCode}` : ""}
      {test.error && test.statusCode === null ? `: ${test.error}` : ""}
      <span className="block text-xs opacity-80">Delivery {test.deliveryId}</span>
    </Alert>
  );
}

/** Send test, Edit and Delete (with an in-page confirmation) for one webhook. */
export function WebhookActions({
  webhookId,
  url,
  values,
  test,
  update,
  remove,
}: {
  webhookId: string;
  url: string;
  values: WebhookFormValues;
  test: FormAction<WebhookActionState>;
  update: FormAction<WebhookFormState>;
  remove: FormAction<WebhookActionState>;
}) {
  const [tested, testAction] = useActionState(test, {});
  const [removed, removeAction] = useActionState(remove, {});
  const [mode, setMode] = useState<"idle" | "editing" | "confirm-delete">("idle");
  const close = useCallback(() => setMode("idle"), []);
  const error = tested.error ?? removed.error;

  return (
    <div className="space-y-3">
      {tested.test ? <TestResult test={tested.test} /> : null}
      {error ? <Alert>{error}</Alert> : null}
      {mode === "editing" ? (
        <WebhookForm action={update} webhookId={webhookId} initial={values} submitLabel="Save changes" onSaved={close} onCancel={close} />
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <form action={testAction}>
            <input type="hidden" name="id" value={webhookId} />
            <Submit pendingLabel="Sending…">Send test</Submit>
          </form>
          <Button type="button" variant="secondary" onClick={() => setMode("editing")}>
            Edit
          </Button>
          {mode === "confirm-delete" ? (
            <form action={removeAction} className="flex flex-wrap items-center gap-2 rounded-md bg-subtle p-2">
              <input type="hidden" name="id" value={webhookId} />
              <span className="text-sm text-fg-2">Delete the webhook for {url}? Pending deliveries stop and its secret stops working.</span>
              <Submit variant="danger" pendingLabel="Deleting…">
                Delete webhook
              </Submit>
              <Button type="button" variant="ghost" onClick={close}>
                Cancel
              </Button>
            </form>
          ) : (
            <Button type="button" variant="secondary" onClick={() => setMode("confirm-delete")}>
              Delete
            </Button>
          )}
        </div>
      )}
    </div>
  );
}

/** Redeliver one finished delivery (a new series of attempts under the same delivery id). */
export function RedeliverButton({ webhookId, deliveryId, action }: { webhookId: string; deliveryId: string; action: FormAction<WebhookActionState> }) {
  const [state, formAction] = useActionState(action, {});
  return (
    <form action={formAction} className="flex items-center gap-3">
      <input type="hidden" name="webhook_id" value={webhookId} />
      <input type="hidden" name="delivery_id" value={deliveryId} />
      {state.error ? (
        <span role="alert" className="text-sm text-danger">
          {state.error}
        </span>
      ) : null}
      {state.done ? (
        <span role="status" className="text-sm text-success">
          Redelivery started
        </span>
      ) : null}
      <Submit pendingLabel="Starting…">Redeliver</Submit>
    </form>
  );
}

/** "Send test" on the deliveries page. */
export function SendTestButton({ webhookId, action }: { webhookId: string; action: FormAction<WebhookActionState> }) {
  const [state, formAction] = useActionState(action, {});
  return (
    <div className="space-y-2">
      <form action={formAction}>
        <input type="hidden" name="id" value={webhookId} />
        <Submit pendingLabel="Sending…">Send test</Submit>
      </form>
      {state.test ? <TestResult test={state.test} /> : null}
      {state.error ? <Alert>{state.error}</Alert> : null}
    </div>
  );
}
