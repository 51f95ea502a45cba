"use client";

import { useActionState, useState } from "react";
import { ScopeCheckboxes } from "@/components/oauth/scope-checkboxes";
import { SecretReveal } from "@/components/oauth/secret-reveal";
import type { CreateClientState, FormAction } from "@/components/oauth/state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FieldError } from "@/components/ui/field-error";
import { Input } from "@/components/ui/input";
import { ALL_SCOPES } from "@/lib/access/scopes";

export function CreateClientForm({ action }: { action: FormAction<CreateClientState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  // The secret leaves the page when dismissed; a reload never brings it back (it was never stored).
  const [dismissed, setDismissed] = useState<string | null>(null);
  const created = state.created && state.created.secret !== dismissed ? state.created : null;
  const values = state.values;

  return (
    <div className="space-y-4">
      {created ? (
        <SecretReveal
          title={`Client “${created.name}” created`}
          clientId={created.clientId}
          secret={created.secret}
          onDone={() => setDismissed(created.secret)}
        />
      ) : null}
      {state.error ? <Alert>{state.error}</Alert> : null}
      {/* React resets the form after each submission, to these defaults: the input after an error. */}
      <form action={formAction} className="space-y-4">
        <Input label="Name" id="client-name" name="name" required maxLength={100} defaultValue={values?.name ?? ""} error={state.fieldErrors?.name} />
        <label htmlFor="redirect-uris" className="block text-sm">
          <span className="mb-1 block font-medium text-fg-2">Redirect URIs</span>
          <textarea
            id="redirect-uris"
            name="redirect_uris"
            rows={3}
            required
            aria-describedby={state.fieldErrors?.redirect_uris ? "redirect-uris-error redirect-uris-hint" : "redirect-uris-hint"}
            aria-invalid={state.fieldErrors?.redirect_uris ? true : undefined}
            defaultValue={values?.redirectUris ?? ""}
            className={`block w-full rounded-md border bg-surface px-3 py-2 font-mono text-sm ${state.fieldErrors?.redirect_uris ? "border-danger-edge" : "border-line-strong"}`}
          />
          <FieldError id="redirect-uris-error" message={state.fieldErrors?.redirect_uris} />
          <span id="redirect-uris-hint" className="mt-1 block text-xs text-fg-subtle">
            One per line, at most 10. https, or http on localhost for development. Must match exactly what the app sends.
          </span>
        </label>
        <ScopeCheckboxes
          legend="Allowed scopes"
          name="allowed_scope"
          scopes={ALL_SCOPES}
          checked={values?.scopes ?? []}
          idPrefix="create"
          error={state.fieldErrors?.allowed_scope}
        />
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create client"}
        </Button>
      </form>
    </div>
  );
}
