"use client";

import { Send } from "lucide-react";
import { useState } from "react";
import type { BoundAction } from "@/components/portal-workspace/state";
import { useFormResult } from "@/components/portal-workspace/use-form-result";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { BULK_FORM_ID } from "./form-ids";
import { RequestFields, type DocumentOption } from "./request-fields";

const selectedCount = () => document.querySelectorAll(`input[form="${BULK_FORM_ID}"][name="portal_ids"]:checked`).length;

/**
 * "Send request": one request to the portals selected in the list, or to every portal matching
 * the list's filters. The form carries a key made when the dialog opens: pressing twice (or a
 * resubmission) sends once. Runs in the background; the action opens its progress page.
 */
export function BulkRequestDialog({
  action,
  documents,
  filter,
  filterLabel,
}: {
  action: BoundAction;
  documents: DocumentOption[];
  filter: { q?: string; tag?: string; state?: string; status: string };
  /** The filters in words ("tag “tax”"); null when none is set. */
  filterLabel: string | null;
}) {
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState("");
  const [selected, setSelected] = useState(0);
  const [target, setTarget] = useState<"selected" | "filter">("selected");
  const { state, onSubmit, pending } = useFormResult(action, () => setOpen(false));
  const errors = state.fieldErrors ?? {};

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (next) {
          const count = selectedCount();
          setSelected(count);
          setTarget(count > 0 ? "selected" : "filter");
          setKey(crypto.randomUUID());
        }
        setOpen(next);
      }}
      wide
      title="Send a request to many portals"
      description="Each portal gets its own task, assigned to its guests. It is sent in the background; you can follow and cancel it."
      trigger={
        <Button variant="secondary" data-testid="bulk-request">
          <Send aria-hidden size={16} />
          Send request
        </Button>
      }
    >
      <form id={BULK_FORM_ID} onSubmit={onSubmit} className="space-y-4" data-testid="bulk-request-form">
        <input type="hidden" name="idempotencyKey" value={key} />
        <input type="hidden" name="target" value={target} />
        {Object.entries(filter).map(([name, value]) => (value ? <input key={name} type="hidden" name={`filter_${name}`} value={value} /> : null))}
        {state.error ? <Alert>{state.error}</Alert> : null}
        <fieldset className="space-y-1 text-sm">
          <legend className="mb-1 font-medium text-fg-2">Send to</legend>
          <label className="flex items-center gap-2">
            <input
              type="radio"
              name="target-choice"
              className="size-4"
              checked={target === "selected"}
              disabled={selected === 0}
              onChange={() => setTarget("selected")}
            />
            {selected === 0 ? "Selected portals (none selected)" : `The ${selected} selected ${selected === 1 ? "portal" : "portals"}`}
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="target-choice" className="size-4" checked={target === "filter"} onChange={() => setTarget("filter")} />
            {filterLabel ? `Every portal matching ${filterLabel}, on every page` : "Every active portal"}
          </label>
          {errors.target ? (
            <p role="alert" className="text-danger">
              {errors.target}
            </p>
          ) : null}
        </fieldset>
        <RequestFields errors={errors} documents={documents} anchor="sending" />
        <DialogFooter>
          <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending} data-testid="bulk-send">
            {pending ? "Sending…" : "Send"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
