import { fileWhere, requirePortal, taskWhere } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

export interface SignatureRecord {
  signerName: string | null;
  signerEmail: string | null;
  signedAt: Date;
  ip: string | null;
  userAgent: string | null;
  method: string | null;
  /** The signed copy while it is in the portal (null once deleted). */
  signedFile: { id: string; name: string } | null;
  /** 1-based page of the signed copy with the certificate of signing. */
  certificatePage: number | null;
  /** The original the client signed, while it is in the portal. */
  original: { id: string; name: string } | null;
}

const str = (v: unknown) => (typeof v === "string" ? v : null);

/**
 * Who signed a Sign Document task, when, from where, and the files: read from the signing's own
 * audit rows (`file.signed` for the signer and the certificate page, `task.signature_consented`
 * for the address and browser), which the signing writes in its transaction. Null when the task
 * was not signed (completed without a signature through the API, or still open). Anyone who may
 * view the portal's tasks; 404 otherwise.
 */
export async function getSignatureRecord({ viewer, portalId, taskId }: { viewer: Viewer; portalId: string; taskId: string }): Promise<SignatureRecord | null> {
  requirePortal(viewer, portalId, "viewTasks", "Task");
  const task = isUuid(taskId)
    ? await db.task.findFirst({ where: { AND: [taskWhere(viewer, "viewTasks"), { id: taskId, portalId }] }, select: { id: true, actionType: true } })
    : null;
  if (!task) throw notFound("Task");
  if (task.actionType !== "SignDocument") return null;
  const signedRows = await db.auditLog.findMany({
    where: { orgId: viewer.orgId, portalId, action: "file.signed", targetType: "file", metadata: { path: ["task_id"], equals: task.id } },
    orderBy: { createdAt: "desc" },
    take: 1,
  });
  const signed = signedRows[0];
  if (!signed) return null;
  const consent = await db.auditLog.findFirst({
    where: { orgId: viewer.orgId, portalId, action: "task.signature_consented", targetType: "task", targetId: task.id },
    orderBy: { createdAt: "desc" },
  });
  const meta = (signed.metadata ?? {}) as Record<string, unknown>;
  const consentMeta = (consent?.metadata ?? {}) as Record<string, unknown>;
  const originalId = str(meta.original_file_id);
  const [signedFile, original] = await Promise.all([
    signed.targetId && isUuid(signed.targetId)
      ? db.fileEntry.findFirst({ where: { AND: [fileWhere(viewer, "listFiles"), { id: signed.targetId, portalId }] }, select: { id: true, name: true } })
      : null,
    originalId && isUuid(originalId)
      ? db.fileEntry.findFirst({ where: { AND: [fileWhere(viewer, "listFiles"), { id: originalId, portalId }] }, select: { id: true, name: true } })
      : null,
  ]);
  return {
    signerName: str(meta.signer_name),
    signerEmail: str(meta.signer_email),
    signedAt: signed.createdAt,
    ip: str(consentMeta.ip),
    userAgent: str(consentMeta.user_agent),
    method: str(consentMeta.method),
    signedFile,
    certificatePage: typeof meta.certificate_page === "number" ? meta.certificate_page : null,
    original,
  };
}
