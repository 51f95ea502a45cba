import { MessageSquare, Paperclip } from "lucide-react";
import Link from "next/link";
import { formatSize } from "@/components/files/format";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import type { ThreadMessage } from "@/lib/messages/thread";
import { fileDownloadPath } from "@/lib/links";
import { Time } from "@/components/ui/time";

/**
 * A portal's messages, oldest first, each with its author and side (the firm or the client), its
 * attachments (download links when the reader may download), and a "New" marker while unread.
 */
export function MessageThread({
  orgId,
  portalId,
  messages,
  canDownload,
  firmName,
  olderHref,
  emptyHint,
}: {
  orgId: string;
  portalId: string;
  messages: ThreadMessage[];
  canDownload: boolean;
  firmName: string;
  olderHref: string | null;
  emptyHint: string;
}) {
  if (messages.length === 0)
    return (
      <EmptyState icon={MessageSquare} title="No messages yet">
        {emptyHint}
      </EmptyState>
    );
  return (
    <div className="space-y-3">
      {olderHref ? (
        <Link href={olderHref} className="text-sm font-medium text-brand-ink underline">
          Older messages
        </Link>
      ) : null}
      <ol className="space-y-3" aria-label="Messages" data-testid="message-thread">
        {messages.map((m) => (
          <li
            key={m.id}
            id={`message-${m.id}`}
            data-testid="message"
            data-unread={m.unread ? "true" : undefined}
            className={`scroll-mt-4 rounded-lg border p-3 text-sm sm:p-4 ${m.mine ? "ml-6 border-brand/20 bg-brand-wash sm:ml-16" : "mr-6 border-line bg-surface sm:mr-16"}`}
          >
            <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium text-fg">
                {m.mine ? "You" : (m.author ?? "Former user")}
                <span className="font-normal text-fg-muted"> · {m.fromFirm ? firmName : "Client"}</span>
              </span>
              <span className="flex items-center gap-2 text-xs text-fg-muted">
                {m.unread ? (
                  <Badge tone="info" className="unread-marker">
                    New
                  </Badge>
                ) : null}
                <Time value={m.createdAt} format="relative" />
              </span>
            </div>
            {m.body ? <p className="break-words whitespace-pre-line text-fg">{m.body}</p> : null}
            {m.files.length > 0 ? (
              <ul className="mt-2 space-y-1" aria-label="Attachments">
                {m.files.map((f) => (
                  <li key={f.id} className="flex items-center gap-2" data-testid="message-attachment">
                    <Paperclip aria-hidden className="size-4 shrink-0 text-fg-subtle" />
                    {canDownload ? (
                      <a href={fileDownloadPath(orgId, portalId, f.id)} className="min-w-0 truncate font-medium text-brand-ink underline" title={f.name}>
                        {f.name}
                      </a>
                    ) : (
                      <span className="min-w-0 truncate text-fg" title={f.name}>
                        {f.name}
                      </span>
                    )}
                    <span className="shrink-0 text-xs text-fg-muted">{formatSize(f.size)}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
