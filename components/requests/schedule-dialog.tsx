"use client";

import { Repeat } from "lucide-react";
import { useState } from "react";
import type { BoundAction } from "@/components/portal-workspace/state";
import { useFormResult } from "@/components/portal-workspace/use-form-result";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { RequestFields, type DocumentOption } from "./request-fields";

const FREQUENCIES = [
  { value: "monthly", label: "Every month" },
  { value: "quarterly", label: "Every 3 months" },
  { value: "yearly", label: "Every year" },
];

/**
 * A request that repeats on a portal, or an entry of a template's request list (`template`:
 * repeating is optional there, and a relative due date counts from the new portal's creation).
 */
export function ScheduleDialog({
  portalId,
  action,
  documents,
  template,
}: {
  portalId: string;
  action: BoundAction;
  documents: DocumentOption[];
  template: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const [frequency, setFrequency] = useState(template ? "none" : "monthly");
  const { state, onSubmit, pending } = useFormResult(action, () => {
    setOpen(false);
    setFormKey((k) => k + 1);
  });
  const errors = state.fieldErrors ?? {};
  const repeats = frequency !== "none";
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      wide
      title={template ? "Add a request to the template" : "New recurring request"}
      description={
        template
          ? "Every portal created from this template gets it as a task, or as a recurring request when it repeats."
          : "The portal's guests get a new task every period, with its due date counted from that day."
      }
      trigger={
        <Button variant="secondary" data-testid={template ? "add-template-request" : "new-recurring-request"}>
          <Repeat aria-hidden size={16} />
          {template ? "Add request" : "Recurring request"}
        </Button>
      }
    >
      <form key={formKey} onSubmit={onSubmit} className="space-y-4" data-testid="schedule-form">
        <input type="hidden" name="portalId" value={portalId} />
        {state.error ? <Alert>{state.error}</Alert> : null}
        <RequestFields errors={errors} documents={documents} anchor={template ? "the portal is created" : "each occurrence"} />
        <div className="grid gap-3 sm:grid-cols-2">
          <Select
            id="schedule-frequency"
            name="frequency"
            label="Repeats"
            value={frequency}
            onChange={(e) => setFrequency(e.target.value)}
            options={template ? [{ value: "none", label: "Once, when the portal is created" }, ...FREQUENCIES] : FREQUENCIES}
            error={errors.recurrence}
          />
          {repeats ? (
            <Input
              id="schedule-day"
              name="day_of_month"
              label="On day of the month"
              type="number"
              min={1}
              max={31}
              defaultValue={1}
              hint="The last day in shorter months"
            />
          ) : null}
        </div>
        <DialogFooter>
          <Button type="button" variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={pending}>
            {pending ? "Saving…" : template ? "Add" : "Save"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
