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

/** The first words of a message, as the inbox and the email's list show it (or what it attached). */
export function messageSummary(body: string, files: { name: string }[]): string {
  const line = body.replace(/\s+/g, " ").trim();
  if (line) return line.length > 120 ? `${line.slice(0, 117)}…` : line;
  return files.length === 1 ? `Sent ${files[0]!.name}` : `Sent ${files.length} files`;
}
