"use client";

import { CheckCircle2 } from "lucide-react";
import { useActionState } from "react";
import { Alert } from "@/components/ui/alert";
import { useToast } from "@/components/ui/toast";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import type { FormAction, FormState } from "@/lib/web/form-state";

// The forms of a client's open tasks (guest portal view). Each posts to a server action that calls
// the domain function; errors come back at their field, and nothing is stored until all is valid.

export type TaskFormState = FormState<Record<string, string>> & { done?: boolean };

function Hidden({ portalId, taskId }: { portalId: string; taskId: string }) {
  return (
    <>
      <input type="hidden" name="portalId" value={portalId} />
      <input type="hidden" name="taskId" value={taskId} />
    </>
  );
}

/**
 * useActionState for a task's form, with a toast on success: the page refreshes in the same
 * response and the task moves to the done list (its card leaves), so the toast is what says it
 * was sent and what happens next.
 */
function useTaskAction(action: FormAction<TaskFormState>, title: string, description: string) {
  const toast = useToast();
  return useActionState(async (prev: TaskFormState, data: FormData) => {
    const state = await action(prev, data);
    if (state.done) toast(title, { description });
    return state;
  }, {});
}

function Done({ children }: { children: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm font-medium text-success">
      <CheckCircle2 aria-hidden className="size-4" /> {children}
    </p>
  );
}

export function QuestionForm({ action, portalId, taskId, next }: { action: FormAction<TaskFormState>; portalId: string; taskId: string; next: string }) {
  const [state, formAction, pending] = useTaskAction(action, "Answer sent", next);
  if (state.done) return <Done>Answer sent. Thank you!</Done>;
  return (
    <form action={formAction} className="space-y-3">
      <Hidden portalId={portalId} taskId={taskId} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Textarea
        label="Your answer"
        id={`answer-${taskId}`}
        name="answer"
        rows={4}
        required
        defaultValue={state.values?.answer ?? ""}
        error={state.fieldErrors?.answer}
      />
      <Button type="submit" disabled={pending} className="w-full sm:w-auto">
        {pending ? "Sending…" : "Send answer"}
      </Button>
    </form>
  );
}

export function MarkDoneForm({ action, portalId, taskId, next }: { action: FormAction<TaskFormState>; portalId: string; taskId: string; next: string }) {
  const [state, formAction, pending] = useTaskAction(action, "Marked as done", next);
  if (state.done) return <Done>Marked as done.</Done>;
  return (
    <form action={formAction} className="space-y-3">
      <Hidden portalId={portalId} taskId={taskId} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Button type="submit" disabled={pending} className="w-full sm:w-auto">
        {pending ? "Saving…" : "Mark as done"}
      </Button>
    </form>
  );
}

export interface FormFieldView {
  id: string;
  label: string;
  kind: string;
  options: string[];
  required: boolean;
}

export function FillForm({
  action,
  portalId,
  taskId,
  fields,
  next,
}: {
  action: FormAction<TaskFormState>;
  portalId: string;
  taskId: string;
  fields: FormFieldView[];
  next: string;
}) {
  const [state, formAction, pending] = useTaskAction(action, "Form sent", next);
  if (state.done) return <Done>Form sent. Thank you!</Done>;
  if (fields.length === 0) return <p className="text-sm text-fg-muted">The firm has not added the questions of this form yet. Come back later.</p>;
  const errors = state.fieldErrors ?? {};
  return (
    // noValidate: the server checks every field and says what to fix, in the same words on every browser.
    <form action={formAction} className="space-y-4" noValidate>
      <Hidden portalId={portalId} taskId={taskId} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      {fields.map((f) => {
        const name = `field_${f.id}`;
        const id = `${taskId}-${f.id}`;
        const label = `${f.label}${f.required ? " (required)" : ""}`;
        const value = state.values?.[name];
        const error = errors[name];
        switch (f.kind) {
          case "textarea":
            return <Textarea key={f.id} label={label} id={id} name={name} rows={3} defaultValue={value ?? ""} error={error} />;
          case "select":
            return (
              <Select
                // A select ignores a new defaultValue after mounting (and the form resets to it after
                // the action): a new key makes it show the value given back.
                key={`${f.id}:${value ?? ""}`}
                label={label}
                id={id}
                name={name}
                placeholder="Choose…"
                options={f.options.map((o) => ({ value: o, label: o }))}
                defaultValue={value ?? ""}
                error={error}
              />
            );
          case "checkbox":
            return (
              <div key={f.id}>
                <Checkbox
                  label={label}
                  id={id}
                  name={name}
                  defaultChecked={value === "on"}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                />
                {error ? (
                  <span id={`${id}-error`} role="alert" className="mt-1 block text-sm text-danger">
                    {error}
                  </span>
                ) : null}
              </div>
            );
          default:
            return (
              <Input
                key={f.id}
                label={label}
                id={id}
                name={name}
                type={f.kind === "date" ? "date" : "text"}
                inputMode={f.kind === "number" ? "decimal" : undefined}
                defaultValue={value ?? ""}
                error={error}
              />
            );
        }
      })}
      <Button type="submit" disabled={pending} className="w-full sm:w-auto">
        {pending ? "Sending…" : "Send the form"}
      </Button>
    </form>
  );
}
