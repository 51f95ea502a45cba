"use client";

import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ReactNode } from "react";

/**
 * A modal dialog (Radix: focus trapped and restored, Escape and the close button close it, the
 * page behind is inert). Controlled (`open`/`onOpenChange`) or uncontrolled with a `trigger`.
 * On a phone it fills the width and scrolls inside.
 */
export function Dialog({
  title,
  description,
  trigger,
  open,
  onOpenChange,
  children,
  wide = false,
}: {
  title: string;
  description?: ReactNode;
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      {trigger ? <DialogPrimitive.Trigger asChild>{trigger}</DialogPrimitive.Trigger> : null}
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/40" />
        <DialogPrimitive.Content
          className={`fixed inset-x-2 top-4 z-50 mx-auto max-h-[calc(100vh-2rem)] overflow-y-auto rounded-lg bg-white p-5 shadow-xl focus:outline-none sm:top-[10vh] ${wide ? "max-w-3xl" : "max-w-lg"}`}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <div>
              <DialogPrimitive.Title className="text-lg font-semibold text-slate-900">{title}</DialogPrimitive.Title>
              {description ? (
                <DialogPrimitive.Description className="mt-1 text-sm text-slate-600">{description}</DialogPrimitive.Description>
              ) : (
                <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
              )}
            </div>
            <DialogPrimitive.Close
              className="rounded-md p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-brand"
              aria-label="Close"
            >
              <X aria-hidden size={18} />
            </DialogPrimitive.Close>
          </div>
          {children}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/** A button that closes the dialog it is in (e.g. Cancel). */
export const DialogClose = DialogPrimitive.Close;
