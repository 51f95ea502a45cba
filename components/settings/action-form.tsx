"use client";

import { MoreHorizontal } from "lucide-react";
import { useActionState, useRef, useState, type ReactNode } from "react";
import { Alert } from "@/components/ui/alert";
import { Button, type ButtonVariant } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { ActionMenu } from "@/components/ui/dropdown-menu";
import type { FormAction, FormState } from "@/lib/web/form-state";

export type SettingsState = FormState & { done?: string };

/**
 * A settings form: its fields (rendered by the page), one submit button, and what the action
 * answered (an error naming the fix, per-field messages, or what was done), announced to screen
 * readers. Its fields are one width (max-w-xl) on every settings page; `inline` puts the button
 * beside the fields (row actions). With `confirm`, the button
 * first asks (ConfirmDialog) and the form is submitted only once confirmed. With `menu` (and
 * `confirm`), the action is an item of the row's menu button named `menu` instead of a button of its
 * own: a list's rows then carry one quiet button rather than a red one each.
 */
export function ActionForm({
  action,
  submitLabel,
  children,
  variant = "primary",
  inline = false,
  label,
  confirm,
  menu,
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
  /** The accessible name of the row's menu button that holds this action (with `confirm`). */
  menu?: string;
}) {
  const [state, formAction, pending] = useActionState(action, {});
  const [asking, setAsking] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  // The answer shown is the action's latest one until a field is changed after it: an error about
  // the previous value does not stay beside a new one.
  const [editedAfter, setEditedAfter] = useState<SettingsState | null>(null);
  const answer: SettingsState = editedAfter === state ? {} : state;
  const messages = [answer.error, ...Object.values(answer.fieldErrors ?? {})].filter(Boolean);
  return (
    <form ref={formRef} action={formAction} onChange={() => setEditedAfter(state)} className={inline ? "flex flex-wrap items-end gap-2" : "max-w-xl space-y-4"}>
      {children}
      {confirm && menu ? (
        <ActionMenu
          label={menu}
          items={[{ label: submitLabel, danger: variant === "danger", disabled: pending, onSelect: () => setAsking(true) }]}
          trigger={
            <Button type="button" variant="ghost" aria-label={menu} className="w-10 px-0!">
              <MoreHorizontal aria-hidden size={18} />
            </Button>
          }
        />
      ) : null}
      {confirm ? (
        <ConfirmDialog
          open={asking}
          onOpenChange={setAsking}
          trigger={
            menu ? undefined : (
              <Button type="button" variant={variant} disabled={pending} aria-label={label}>
                {submitLabel}
              </Button>
            )
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
        <Button type="submit" variant={variant} disabled={pending} aria-label={label}>
          {submitLabel}
        </Button>
      )}
      {messages.length > 0 ? (
        <div className="w-full">
          <Alert>{messages.join(" ")}</Alert>
        </div>
      ) : answer.done ? (
        <div className="w-full">
          <Alert tone="success">{answer.done}</Alert>
        </div>
      ) : null}
    </form>
  );
}
