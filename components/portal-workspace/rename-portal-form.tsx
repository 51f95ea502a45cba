"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { MAX_NAME_LENGTH } from "@/lib/portals/limits";
import type { BoundAction } from "./state";
import { useFormResult } from "./use-form-result";

/** The portal's name: a field and Save (the same rules as the API's PATCH: trimmed, 1-200 characters). */
export function RenamePortalForm({ portalId, name, action }: { portalId: string; name: string; action: BoundAction }) {
  const [draft, setDraft] = useState(name);
  const { state, onSubmit, pending } = useFormResult(action, () => undefined, "Portal renamed");
  const unchanged = draft.trim() === name;
  return (
    <form onSubmit={onSubmit} className="space-y-3" data-testid="rename-portal">
      <input type="hidden" name="portalId" value={portalId} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Input
        id="portal-name-input"
        name="name"
        label="Name"
        required
        maxLength={MAX_NAME_LENGTH}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        hint="What the firm and the portal's guests see, in lists, emails and webhooks"
        error={state.fieldErrors?.name}
      />
      <Button type="submit" disabled={pending || unchanged}>
        {pending ? "Saving…" : "Save name"}
      </Button>
    </form>
  );
}
