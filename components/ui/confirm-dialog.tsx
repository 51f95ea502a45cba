"use client";

import { useState, type ReactNode } from "react";
import { AlertDialog } from "radix-ui";
import { Button, buttonClasses } from "@/components/ui/button";

/**
 * Asks before an action that is hard to undo (Radix AlertDialog: focus starts on Cancel).
 * With `typeToConfirm`, the confirm button stays disabled until that exact text is typed
 * (e.g. the portal's name before a permanent delete).
 */
export function ConfirmDialog({
  trigger,
  title,
  description,
  confirmLabel,
  onConfirm,
  typeToConfirm,
  danger = true,
  pending = false,
  open,
  onOpenChange,
}: {
  trigger?: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  typeToConfirm?: string;
  danger?: boolean;
  pending?: boolean;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}) {
  const [typed, setTyped] = useState("");
  const blocked = typeToConfirm !== undefined && typed !== typeToConfirm;
  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(o) => {
        if (!o) setTyped("");
        onOpenChange?.(o);
      }}
    >
      {trigger ? <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-scrim" />
        <AlertDialog.Content className="fixed inset-x-2 top-4 z-50 mx-auto max-h-[calc(100dvh-2rem)] max-w-md overflow-y-auto overscroll-contain rounded-lg bg-surface p-5 shadow-xl focus:outline-none sm:top-[15vh] sm:max-h-[70dvh]">
          <AlertDialog.Title className="text-lg font-semibold text-fg">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 text-sm text-fg-2">{description}</div>
          </AlertDialog.Description>
          {typeToConfirm !== undefined ? (
            <label className="mt-4 block text-sm">
              <span className="mb-1 block font-medium text-fg-2">
                Type <strong className="font-semibold">{typeToConfirm}</strong> to confirm
              </span>
              <input
                className="block w-full rounded-md border border-line-strong px-3 py-2 focus:border-brand-ink focus:outline-none focus:ring-1 focus:ring-brand-ink"
                value={typed}
                onChange={(e) => setTyped(e.target.value)}
                autoComplete="off"
                data-testid="confirm-input"
              />
            </label>
          ) : null}
          <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses("secondary")}>Cancel</AlertDialog.Cancel>
            <Button variant={danger ? "danger" : "primary"} disabled={blocked || pending} onClick={onConfirm}>
              {pending ? "Working…" : confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
