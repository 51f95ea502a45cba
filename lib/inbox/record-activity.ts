import type { Viewer } from "@/lib/access/viewer";
import type { Tx } from "@/lib/db";
import type { InboxKind } from "@/lib/generated/prisma/client";

/** A client: a guest of the organization acting in one of their portals (members' own work is not inbox material). */
export function isClient(viewer: Viewer): viewer is Extract<Viewer, { kind: "user" }> {
  return viewer.kind === "user" && viewer.role === "guest";
}

/**
 * Writes the firm's inbox item of something a client did, in the transaction of the client's
 * change (the upload's registration, the answer, the form, the signature, the message), so an
 * item exists exactly when the change committed. Nothing for members, admins or the system.
 */
export async function recordClientActivity(
  tx: Tx,
  viewer: Viewer,
  input: { portalId: string; kind: InboxKind; title: string; taskId?: string | null; fileId?: string | null; messageId?: string | null; at?: Date },
): Promise<void> {
  if (!isClient(viewer)) return;
  await tx.inboxItem.create({
    data: {
      orgId: viewer.orgId,
      portalId: input.portalId,
      kind: input.kind,
      actorUserId: viewer.userId,
      title: input.title.slice(0, 200),
      taskId: input.taskId ?? null,
      fileId: input.fileId ?? null,
      messageId: input.messageId ?? null,
      ...(input.at ? { createdAt: input.at } : {}),
    },
  });
}
