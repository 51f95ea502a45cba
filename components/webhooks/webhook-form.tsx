"use client";

import { useActionState, useEffect } from "react";
import { EventCheckboxes } from "@/components/webhooks/event-checkboxes";
import type { FormAction, WebhookFormState, WebhookFormValues } from "@/components/webhooks/state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

/** Create (no `webhookId`) or edit a webhook: URL, events and, when editing, enabled. */
export function WebhookForm({
  action,
  webhookId,
  initial,
  submitLabel,
  onSaved,
  onCancel,
}: {
  action: FormAction<WebhookFormState>;
  webhookId?: string;
  initial: WebhookFormValues;
  submitLabel: string;
  onSaved?: () => void;
  onCancel?: () => void;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  useEffect(() => {
    if (state.saved) onSaved?.();
  }, [state.saved, onSaved]);
  // React resets the form after each submission, to these defaults: the input after an error.
  const values = state.values ?? initial;
  const idPrefix = webhookId ? `edit-${webhookId}` : "create";

  return (
    <form action={formAction} className="space-y-4">
      {webhookId ? <input type="hidden" name="id" value={webhookId} /> : null}
      {state.error ? <Alert>{state.error}</Alert> : null}
      {state.saved && !webhookId ? <Alert tone="success">Webhook created. Its signing secret is in the list below.</Alert> : null}
      <Input
        label="Endpoint URL"
        id={`${idPrefix}-url`}
        name="url"
        type="url"
        required
        maxLength={2000}
        placeholder="https://example.com/webhooks/client-portals"
        defaultValue={values.url}
        error={state.fieldErrors?.url}
      />
      <EventCheckboxes checked={values.events} idPrefix={idPrefix} error={state.fieldErrors?.events} />
      {webhookId ? (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="enabled" defaultChecked={values.enabled} className="h-4 w-4 rounded border-line-strong" />
          <span className="font-medium text-fg-2">Enabled</span>
          <span className="text-fg-subtle">(a disabled webhook receives nothing; its pending retries stop)</span>
        </label>
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}
