"use client";

import { useActionState, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, type ButtonVariant } from "@/components/ui/button";
import type { FormAction, FormState } from "@/lib/web/form-state";

export type SettingsState = FormState & { done?: string };

/**
 * A settings form: its fields (rendered by the page), one submit button, and what the action
 * answered (an error naming the fix, per-field messages, or what was done), announced to screen
 * readers. `inline` puts the button beside the fields (row actions).
 */
export function ActionForm({
  action,
  submitLabel,
  children,
  variant = "primary",
  inline = false,
  label,
}: {
  action: FormAction<SettingsState>;
  submitLabel: string;
  children?: ReactNode;
  variant?: ButtonVariant;
  inline?: boolean;
  /** The button's accessible name when the visible label is ambiguous in a list. */
  label?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const messages = [state.error, ...Object.values(state.fieldErrors ?? {})].filter(Boolean);
  return (
    <form action={formAction} className={inline ? "flex flex-wrap items-end gap-2" : "space-y-4"}>
      {children}
      <Button type="submit" variant={variant} disabled={pending} aria-label={label} size={inline ? "sm" : "md"}>
        {submitLabel}
      </Button>
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
