"use client";

import { AlarmClock, CheckCircle2, FileSignature, FileUp, ListChecks, MessageSquare, PenLine } from "lucide-react";
import Link from "next/link";
import { useRef, type KeyboardEvent } from "react";
import { Badge } from "@/components/ui/badge";
import { Time } from "@/components/ui/time";

export interface InboxRow {
  id: string;
  kind: "upload" | "answer" | "form" | "signed" | "done" | "message" | "overdue";
  portalId: string;
  portalName: string;
  title: string;
  /** ISO time: when it happened, or the due date of an overdue request. */
  at: string;
  actor: string | null;
  seen: boolean;
  href: string;
  /** The list filtered to this portal. */
  portalHref: string;
}

const KIND: Record<InboxRow["kind"], { label: string; verb: string; icon: typeof FileUp }> = {
  upload: { label: "Upload", verb: "uploaded", icon: FileUp },
  answer: { label: "Answer", verb: "answered", icon: PenLine },
  form: { label: "Form", verb: "sent the form", icon: ListChecks },
  signed: { label: "Signed", verb: "signed", icon: FileSignature },
  done: { label: "Done", verb: "marked as done", icon: CheckCircle2 },
  message: { label: "Message", verb: "wrote", icon: MessageSquare },
  overdue: { label: "Overdue", verb: "is overdue", icon: AlarmClock },
};

/**
 * The inbox's rows. Each opens with one button (a form: the item is marked seen, then the page
 * it is about opens). Keyboard: ↓/j and ↑/k move between items, Home/End to the first and last,
 * Enter opens; Tab still walks every control.
 */
export function InboxList({ rows, open }: { rows: InboxRow[]; open: (state: Record<string, never>, data: FormData) => Promise<unknown> }) {
  const list = useRef<HTMLOListElement>(null);
  const onKeyDown = (e: KeyboardEvent<HTMLOListElement>) => {
    const buttons = Array.from(list.current?.querySelectorAll<HTMLElement>("[data-inbox-open]") ?? []);
    if (buttons.length === 0) return;
    const current = buttons.findIndex((b) => b === document.activeElement || b.closest("li")?.contains(document.activeElement));
    let next: number | null = null;
    if (e.key === "ArrowDown" || e.key === "j") next = current < 0 ? 0 : Math.min(current + 1, buttons.length - 1);
    else if (e.key === "ArrowUp" || e.key === "k") next = current < 0 ? 0 : Math.max(current - 1, 0);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = buttons.length - 1;
    if (next === null) return;
    e.preventDefault();
    buttons[next]!.focus();
  };
  return (
    <ol
      ref={list}
      onKeyDown={onKeyDown}
      aria-label="Inbox items"
      className="divide-y divide-line-soft rounded-lg border border-line bg-surface"
      data-testid="inbox-list"
    >
      {rows.map((r) => {
        const k = KIND[r.kind];
        const Icon = k.icon;
        const unread = !r.seen;
        return (
          <li
            key={`${r.kind}-${r.id}`}
            data-testid="inbox-item"
            data-kind={r.kind}
            data-unread={unread ? "true" : undefined}
            className={unread ? "bg-brand-wash/40" : ""}
          >
            <div className="flex items-start gap-3 px-3 py-3 sm:px-4">
              <Icon aria-hidden className={`mt-0.5 size-5 shrink-0 ${r.kind === "overdue" ? "text-warning" : "text-fg-subtle"}`} />
              <div className="min-w-0 flex-1">
                <form
                  action={async (data) => {
                    await open({}, data);
                  }}
                >
                  <input type="hidden" name="itemId" value={r.id} />
                  {r.kind === "overdue" ? (
                    <Link
                      href={r.href}
                      data-inbox-open=""
                      className="block text-left font-medium text-fg hover:text-brand-ink focus-visible:outline-2 focus-visible:outline-brand-ink"
                    >
                      {r.title}
                    </Link>
                  ) : (
                    <button
                      type="submit"
                      data-inbox-open=""
                      className={`block w-full text-left break-words hover:text-brand-ink focus-visible:outline-2 focus-visible:outline-brand-ink ${unread ? "font-semibold text-fg" : "text-fg"}`}
                    >
                      {unread ? <span className="sr-only">Unread: </span> : null}
                      {r.title}
                    </button>
                  )}
                </form>
                <p className="mt-0.5 text-sm text-fg-muted">
                  {r.kind === "overdue" ? (
                    <>
                      Request due <Time value={r.at} format="date" />, still open
                    </>
                  ) : (
                    `${r.actor ?? "A client"} ${k.verb}`
                  )}{" "}
                  ·{" "}
                  <Link href={r.portalHref} className="underline hover:text-brand-ink" aria-label={`Only ${r.portalName}`}>
                    {r.portalName}
                  </Link>
                </p>
              </div>
              <div className="flex shrink-0 flex-col items-end gap-1 text-xs text-fg-muted">
                <Badge tone={r.kind === "overdue" ? "warning" : unread ? "brand" : "neutral"}>{unread ? `New · ${k.label}` : k.label}</Badge>
                {r.kind === "overdue" ? null : <Time value={r.at} format="relative" />}
              </div>
            </div>
          </li>
        );
      })}
    </ol>
  );
}
