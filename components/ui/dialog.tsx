"use client";

import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import type { ReactNode } from "react";

/**
 * A modal dialog (Radix: focus trapped and restored, Escape and the close button close it, the
 * page behind is inert). Controlled (`open`/`onOpenChange`) or uncontrolled with a `trigger`.
 *
 * Never taller than the window: the title row stays put and the body scrolls inside the dialog,
 * so a long form (a task with form fields or a document to sign) never pushes its buttons out of
 * reach. Put the buttons in a `DialogFooter`: it sticks to the bottom of the visible body.
 * On a phone it fills the width.
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
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-scrim" />
        {/* Top and bottom margins are equal (1rem, 5vh from sm up), so the height cap always fits the window. */}
        <DialogPrimitive.Content
          data-testid="dialog"
          className={`fixed inset-x-2 top-4 z-50 mx-auto flex max-h-[calc(100dvh-2rem)] flex-col rounded-lg bg-surface shadow-xl focus:outline-none sm:top-[5vh] sm:max-h-[90dvh] ${wide ? "max-w-3xl" : "max-w-lg"}`}
        >
          <div className="flex shrink-0 items-start justify-between gap-4 border-b border-line-soft px-5 pt-5 pb-3">
            <div className="min-w-0">
              <DialogPrimitive.Title className="text-lg font-semibold break-words text-fg">{title}</DialogPrimitive.Title>
              {description ? (
                <DialogPrimitive.Description className="mt-1 text-sm text-fg-muted">{description}</DialogPrimitive.Description>
              ) : (
                <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
              )}
            </div>
            <DialogPrimitive.Close
              className="rounded-md p-1 text-fg-subtle hover:bg-muted focus-visible:outline-2 focus-visible:outline-brand-ink"
              aria-label="Close"
            >
              <X aria-hidden size={18} />
            </DialogPrimitive.Close>
          </div>
          {/* With a footer the body has no bottom padding (the footer's own closes it): the footer sticks to the body's content box, and a
              padding there would make a form that fits scroll by that much, under the footer. Scroll padding keeps a focused field clear of it. */}
          <div
            className="min-h-0 flex-1 scroll-pb-36 overflow-y-auto overscroll-contain px-5 pt-4 pb-5 has-[[data-dialog-footer]]:pb-0 sm:scroll-pb-24"
            data-testid="dialog-body"
          >
            {children}
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

/**
 * A dialog's buttons (Cancel, then the action; stacked with the action on top on a phone), the
 * last thing in the dialog. Stays at the bottom of the dialog's visible area while the body above
 * it scrolls; a field focused or scrolled to stays clear of it (the body's scroll padding).
 */
export function DialogFooter({ children }: { children: ReactNode }) {
  return (
    <div
      className="sticky bottom-0 z-10 -mx-5 flex flex-col-reverse gap-2 border-t border-line-soft bg-surface px-5 pt-3 pb-5 sm:flex-row sm:justify-end"
      data-testid="dialog-footer"
      data-dialog-footer
    >
      {children}
    </div>
  );
}

/** A button that closes the dialog it is in (e.g. Cancel). */
export const DialogClose = DialogPrimitive.Close;
