"use client";

import { useActionState, useState } from "react";
import type { ClientProfileState, FormAction } from "@/components/oauth/state";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";

export interface ProfileValues {
  publisherName: string;
  websiteUrl: string;
  logoUrl: string;
}

/** Publisher, website and logo of a client, shown to people on its consent screen. */
export function ClientProfileForm({ id, name, initial, action }: { id: string; name: string; initial: ProfileValues; action: FormAction<ClientProfileState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  const [open, setOpen] = useState(false);
  const values = state.values ?? initial;
  const errors = state.fieldErrors ?? {};
  if (!open) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="secondary" onClick={() => setOpen(true)} aria-label={`Edit app details of ${name}`}>
          Edit app details
        </Button>
        {state.saved ? (
          <span role="status" className="text-sm text-success">
            App details saved.
          </span>
        ) : null}
      </div>
    );
  }
  return (
    <form action={formAction} className="space-y-3 rounded-md border border-line p-4">
      <input type="hidden" name="id" value={id} />
      <p className="text-sm text-fg-muted">Shown to people deciding on the consent screen. All optional; https only.</p>
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Input label="Publisher" id={`${id}-publisher`} name="publisherName" maxLength={100} defaultValue={values.publisherName} error={errors.publisherName} />
      <Input
        label="Website"
        id={`${id}-website`}
        name="websiteUrl"
        type="url"
        placeholder="https://example.com"
        defaultValue={values.websiteUrl}
        error={errors.websiteUrl}
      />
      <Input
        label="Logo URL"
        id={`${id}-logo`}
        name="logoUrl"
        type="url"
        placeholder="https://example.com/logo.png"
        defaultValue={values.logoUrl}
        error={errors.logoUrl}
      />
      <div className="flex gap-2">
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : "Save details"}
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          Close
        </Button>
      </div>
      {state.saved ? (
        <span role="status" className="text-sm text-success">
          App details saved.
        </span>
      ) : null}
    </form>
  );
}
