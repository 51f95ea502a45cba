"use client";

import { Plus } from "lucide-react";
import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogFooter } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { FormAction, FormState } from "@/lib/web/form-state";

export type CreatePortalState = FormState<{ name: string }>;

/**
 * New portal: a name, and optionally a template whose folders, tags and workflow state are copied.
 * Templates need a business or enterprise plan (D8): on the free plan the choice is shown disabled
 * with the reason, so nobody finds out only after submitting.
 */
export function CreatePortalDialog({
  action,
  templates,
  templatesAllowed,
  plan,
}: {
  action: FormAction<CreatePortalState>;
  templates: { id: string; name: string }[];
  templatesAllowed: boolean;
  plan: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const errors = state.fieldErrors ?? {};
  const templateHint = !templatesAllowed
    ? `Creating a portal from a template needs a business or enterprise plan; this organization is on the ${plan} plan.`
    : templates.length === 0
      ? "No templates yet: create one with “Save as a template” below, then add its folders."
      : "The template's folders, tags and workflow state are copied into the new portal.";
  return (
    <Dialog
      title="New portal"
      description="A portal is where one client's files, tasks and guests live."
      trigger={
        <Button type="button">
          <Plus aria-hidden size={16} /> New portal
        </Button>
      }
    >
      <form action={formAction} className="space-y-4">
        {state.error ? <Alert>{state.error}</Alert> : null}
        <Input label="Name" id="new-portal-name" name="name" required maxLength={200} defaultValue={state.values?.name} error={errors.name} autoFocus />
        <div>
          <Select
            label="Start from"
            id="new-portal-template"
            name="templateId"
            placeholder="Blank portal"
            options={templatesAllowed ? templates.map((t) => ({ value: t.id, label: `Template: ${t.name}` })) : []}
            disabled={!templatesAllowed || templates.length === 0}
            aria-describedby="new-portal-template-hint"
            error={errors.templateId}
          />
          <p id="new-portal-template-hint" className="mt-1 text-xs text-fg-muted" data-testid="template-hint">
            {templateHint}
          </p>
        </div>
        <fieldset className="text-sm">
          <legend className="mb-1 font-medium text-fg-2">Create as</legend>
          <label className="mr-4 inline-flex items-center gap-2">
            <input type="radio" name="kind" value="portal" defaultChecked /> A client portal
          </label>
          <label className="inline-flex items-center gap-2">
            <input type="radio" name="kind" value="template" /> Save as a template
          </label>
        </fieldset>
        <DialogFooter>
          <DialogClose asChild>
            <Button type="button" variant="secondary">
              Cancel
            </Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            Create and open
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
