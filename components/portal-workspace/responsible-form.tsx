"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Select } from "@/components/ui/select";
import type { BoundAction } from "./state";
import { useFormResult } from "./use-form-result";

/** The member who looks after the portal (the portal list's "Responsible" column), or nobody. */
export function ResponsibleForm({
  portalId,
  current,
  options,
  action,
}: {
  portalId: string;
  current: string | null;
  options: { userId: string; name: string | null; email: string }[];
  action: BoundAction;
}) {
  const [draft, setDraft] = useState(current ?? "");
  const { state, onSubmit, pending } = useFormResult(action, () => undefined);
  return (
    <form onSubmit={onSubmit} className="space-y-3" data-testid="responsible-form">
      <input type="hidden" name="portalId" value={portalId} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Select
        id="responsible-member"
        name="responsibleMemberId"
        label="Responsible member"
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        placeholder="Nobody"
        options={options.map((o) => ({ value: o.userId, label: o.name ? `${o.name} (${o.email})` : o.email }))}
        error={state.fieldErrors?.responsibleMemberId}
      />
      <Button type="submit" disabled={pending || draft === (current ?? "")}>
        {pending ? "Saving…" : "Save responsible member"}
      </Button>
    </form>
  );
}
