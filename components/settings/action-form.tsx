"use client";

import { useActionState, useRef, useState, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { FormAction, FormState } from "@/lib/web/form-state";

export type SettingsState = FormState & { done?: string };

/**
 * A settings form: its fields (rendered by the page), one submit button, and what the action
 * answered (an error naming the fix, per-field messages, or what was done), announced to screen
 * readers. `inline` puts the button beside the fields (row actions). With `confirm`, the button
 * first asks (ConfirmDialog) and the form is submitted only once confirmed.
 */
export function ActionForm({
  action,
  submitLabel,
  children,
  variant = "primary",
  inline = false,
  label,
  confirm,
}: {
  action: FormAction<SettingsState>;
  submitLabel: string;
  children?: ReactNode;
  variant?: ButtonVariant;
  inline?: boolean;
  /** The button's accessible name when the visible label is ambiguous in a list. */
  label?: string;
  /** Ask before submitting: the dialog's title, what happens, and the confirming button's label. */
  confirm?: { title: string; description: ReactNode; confirmLabel: string };
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [asking, setAsking] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const messages = [state.error, ...Object.values(state.fieldErrors ?? {})].filter(Boolean);
  return (
    <form ref={formRef} action={formAction} className={inline ? "flex flex-wrap items-end gap-2" : "space-y-4"}>
      {children}
      {confirm ? (
        <ConfirmDialog
          open={asking}
          onOpenChange={setAsking}
          trigger={
            <Button type="button" variant={variant} disabled={pending} aria-label={label} size={inline ? "sm" : "md"}>
              {submitLabel}
            </Button>
          }
          title={confirm.title}
          description={confirm.description}
          confirmLabel={confirm.confirmLabel}
          pending={pending}
          onConfirm={() => {
            setAsking(false);
            formRef.current?.requestSubmit();
          }}
        />
      ) : (
        <Button type="submit" variant={variant} disabled={pending} aria-label={label} size={inline ? "sm" : "md"}>
          {submitLabel}
        </Button>
      )}
      {messages.length > 0 ? (
        <div className="w-full">
          <Alert>{messages.join(" ")}</Alert>
        </div>
      ) : state.done ? (
        <div className="w-full">
          <Alert tone="success">{state.done}</Alert>
        </div>
      ) : null}
    </form>
  );
}
