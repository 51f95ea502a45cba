"use client";

import { CheckCircle2, CircleAlert, Info, X } from "lucide-react";
import { Toast } from "radix-ui";
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from "react";

type ToastTone = "success" | "error" | "info";

interface ToastMessage {
  id: number;
  tone: ToastTone;
  title: string;
  description?: string;
  action?: ToastAction;
}

/** A button in the toast (e.g. Undo); `altText` tells screen-reader users how to do it otherwise. */
interface ToastAction {
  label: string;
  altText: string;
  onClick: () => void;
}

type Notify = (title: string, options?: { tone?: ToastTone; description?: string; action?: ToastAction }) => void;

const ToastContext = createContext<Notify | null>(null);

const ICONS = { success: CheckCircle2, error: CircleAlert, info: Info } as const;
const TONES: Record<ToastTone, string> = {
  success: "border-success-line text-success-strong",
  error: "border-danger-line text-danger-strong",
  info: "border-line text-fg",
};

let nextId = 1;

/**
 * Toasts (Radix Toast: announced politely to screen readers, F8 focuses the region, swipe or
 * Escape dismisses). Mounted once in the root layout; components call `useToast()`.
 * Errors stay until dismissed; other toasts leave after 5 seconds.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [messages, setMessages] = useState<ToastMessage[]>([]);
  const notify = useCallback<Notify>((title, options) => {
    const message: ToastMessage = { id: nextId++, tone: options?.tone ?? "success", title, description: options?.description, action: options?.action };
    setMessages((current) => [...current.slice(-3), message]);
  }, []);
  const dismiss = (id: number) => setMessages((current) => current.filter((m) => m.id !== id));
  const value = useMemo(() => notify, [notify]);

  return (
    <ToastContext.Provider value={value}>
      <Toast.Provider swipeDirection="right" duration={5000}>
        {children}
        {messages.map((m) => {
          const Icon = ICONS[m.tone];
          return (
            <Toast.Root
              key={m.id}
              type={m.tone === "error" ? "foreground" : "background"}
              duration={m.tone === "error" ? Infinity : m.action ? 10000 : 5000}
              onOpenChange={(open) => {
                if (!open) dismiss(m.id);
              }}
              className={`flex items-start gap-3 rounded-lg border bg-surface p-3 shadow-lg ${TONES[m.tone]}`}
              data-testid="toast"
            >
              <Icon aria-hidden size={18} className="mt-0.5 shrink-0" />
              <div className="min-w-0 flex-1">
                <Toast.Title className="text-sm font-medium">{m.title}</Toast.Title>
                {m.description ? <Toast.Description className="mt-0.5 text-sm text-fg-2">{m.description}</Toast.Description> : null}
              </div>
              {m.action ? (
                <Toast.Action
                  altText={m.action.altText}
                  onClick={m.action.onClick}
                  className="rounded-md border border-line-strong px-2 py-1 text-sm font-medium text-fg hover:bg-subtle focus-visible:outline-2 focus-visible:outline-brand-ink"
                >
                  {m.action.label}
                </Toast.Action>
              ) : null}
              <Toast.Close aria-label="Dismiss" className="rounded p-0.5 text-fg-subtle hover:bg-muted focus-visible:outline-2 focus-visible:outline-brand-ink">
                <X aria-hidden size={16} />
              </Toast.Close>
            </Toast.Root>
          );
        })}
        <Toast.Viewport className="fixed right-0 bottom-0 z-[60] flex w-full max-w-sm flex-col gap-2 p-4 outline-none" />
      </Toast.Provider>
    </ToastContext.Provider>
  );
}

/** `const toast = useToast(); toast("Saved"); toast("Upload failed", { tone: "error", description: "…" })`. */
export function useToast(): Notify {
  const notify = useContext(ToastContext);
  if (!notify) throw new Error("useToast() needs <ToastProvider> above it (app/layout.tsx mounts one)");
  return notify;
}
