import type { FileActions } from "@/components/files/actions";
import type { ThreadMessage } from "@/lib/messages/thread";
import { MessageComposer, type MessageFormState } from "./composer";
import { MarkThreadRead } from "./mark-read";
import { MessageThread } from "./thread";

/**
 * A portal's thread as both sides see it (the firm's Messages tab, the client's portal page): the
 * messages, the read marker while some are unread, and the composer.
 */
export function PortalMessages({
  orgId,
  portalId,
  files,
  messages,
  olderHref,
  canDownload,
  canAttach,
  firmName,
  emptyHint,
  to,
  post,
  markRead,
}: {
  orgId: string;
  portalId: string;
  /** The portal's file actions, for attachments (the page binds them). */
  files: FileActions;
  messages: ThreadMessage[];
  olderHref: string | null;
  canDownload: boolean;
  canAttach: boolean;
  firmName: string;
  emptyHint: string;
  /** Who reads what is sent, for the toast. */
  to: string;
  post: (state: MessageFormState, data: FormData) => Promise<MessageFormState>;
  markRead: (state: Record<string, never>, data: FormData) => Promise<unknown>;
}) {
  const newest = messages.at(-1);
  return (
    <>
      <MessageThread
        orgId={orgId}
        portalId={portalId}
        messages={messages}
        canDownload={canDownload}
        firmName={firmName}
        olderHref={olderHref}
        emptyHint={emptyHint}
      />
      {newest && messages.some((m) => m.unread) ? <MarkThreadRead portalId={portalId} until={newest.createdAt.toISOString()} action={markRead} /> : null}
      <MessageComposer files={files} portalId={portalId} action={post} canAttach={canAttach} to={to} />
    </>
  );
}
