import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { AppError, conflict, forbidden, invalidRequest, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { withChange } from "@/lib/events/with-change";
import { recordClientActivity } from "@/lib/inbox/record-activity";
import { isUuid } from "@/lib/ids";
import { deleteObject, presignGet, readObject } from "@/lib/storage/objects";
import { fileStorageKey } from "@/lib/storage/s3";
import { uploadStream } from "@/lib/storage/upload-stream";
import { db, type Tx } from "@/lib/db";
import { queueEmail } from "@/lib/email/send-email";
import { turnToSignEmail } from "@/lib/email/templates/turn-to-sign";
import type { Task } from "@/lib/generated/prisma/client";
import { guestTaskUrl } from "@/lib/notifications/task-created";
import { SignaturePlacementSchema } from "@/lib/tasks/sign-document-task";
import { checkCompleter } from "@/lib/tasks/task-answers";
import { markTaskDone } from "@/lib/tasks/complete-task";
import { lockTaskFor } from "@/lib/tasks/task-changes";
import { signingIdentity } from "./certificate";
import { signPdf, signPdfIncrement, type SignatureAppearance } from "./sign-pdf";
import { loadSigners, signersToSign, type SignerState } from "@/lib/tasks/signers";
import { configuredTimeStamper } from "./timestamp";

// A Sign Document task signed by its signer: the original PDF stays; the signed copy (appearance,
// certificate page, PAdES signature) is a new file of the portal beside it, linked to the task;
// `file.signed` fires (D21) and the task completes, with an audit row for each step. With named
// signers (lib/signing/signers.ts) the first signature creates the signed copy and each later one
// replaces its bytes with an incremental update of them (one more page and signature); the next
// signer in order is emailed; `file.signed` fires and the task completes with the last signature.

/** Larger originals are refused: the whole document is signed in memory. */
const MAX_SIGN_BYTES = 50 * 1024 * 1024;
/** A drawn signature as a PNG data URL from the page's canvas. */
const MAX_DRAWN_BYTES = 1024 * 1024;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export type SignatureInput = { kind: "typed"; name: string } | { kind: "drawn"; dataUrl: string };

const CONSENT_TEXT = "I agree to sign this document electronically, and that my electronic signature is as valid as my handwritten one.";

function signatureError(message: string): AppError {
  return new AppError("invalid_request", `signature: ${message}`, {}, { field: "signature", userMessage: message });
}

function appearanceOf(signature: SignatureInput): SignatureAppearance {
  if (signature.kind === "typed") {
    const name = signature.name.trim().replace(/\s+/g, " ");
    if (name.length < 2) throw signatureError("Type your full name to sign");
    if (name.length > 120) throw signatureError("Keep the typed name under 120 characters");
    return { kind: "typed", name };
  }
  const match = /^data:image\/png;base64,([A-Za-z0-9+/=]+)$/.exec(signature.dataUrl.trim());
  if (!match) throw signatureError("Draw your signature in the box first");
  const png = Buffer.from(match[1]!, "base64");
  if (png.length > MAX_DRAWN_BYTES) throw signatureError("The drawing is too large; clear it and sign again");
  if (png.length < PNG_MAGIC.length || !png.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) throw signatureError("Draw your signature in the box first");
  return { kind: "drawn", png };
}

/** The task, its document file and whether the viewer may sign it (outside any transaction: the PDF work happens before the change). */
async function loadSigning(viewer: Viewer, taskId: string) {
  const task = isUuid(taskId) ? await db.task.findFirst({ where: { id: taskId, orgId: viewer.orgId, deletedAt: null } }) : null;
  if (!task) throw notFound("Task");
  requirePortal(viewer, task.portalId, "completeAssignedTask", "Task");
  if (task.actionType !== "SignDocument") throw invalidRequest("taskId: This is not a Sign Document task");
  if (task.status === "Done") throw conflict("This document is already signed");
  if (!task.documentFileId) throw invalidRequest("taskId: The firm has not chosen the document to sign yet");
  const file = await db.fileEntry.findFirst({
    where: { id: task.documentFileId, orgId: viewer.orgId, portalId: task.portalId, isFolder: false, status: "registered", deletedAt: null },
  });
  if (!file?.storageKey) throw invalidRequest("taskId: The document to sign is no longer in the portal; ask the firm to add it again");
  if (file.size > MAX_SIGN_BYTES) throw invalidRequest(`taskId: The document is larger than ${MAX_SIGN_BYTES / 1024 / 1024} MB and cannot be signed here`);
  return { task, file: { ...file, storageKey: file.storageKey } };
}

/** A refusal about the signing order, which the signing page shows as it is (field `signers`). */
const signerRefusal = (code: "forbidden" | "conflict", message: string) => new AppError(code, message, {}, { field: "signers" });

/**
 * Whether the viewer may sign now. Without named signers, the completer check of every task (an
 * assigned guest, any guest when nobody is assigned, a member). With them: one of the signers,
 * not signed yet, and (sequential) the first who has not signed; returns the signers.
 */
async function checkSigner(client: Tx, viewer: Viewer, task: Task): Promise<SignerState[]> {
  const signers = await loadSigners(client, task.id);
  if (signers.length === 0) {
    await checkCompleter(client, viewer, task, "SignDocument");
    return signers;
  }
  if (task.status === "Done") throw conflict("This document is already signed");
  const me = viewer.kind === "user" ? signers.find((s) => s.userId === viewer.userId) : undefined;
  if (!me) throw signerRefusal("forbidden", "You are not one of the signers of this document");
  if (me.signedAt) throw signerRefusal("conflict", "You have signed this document; the other signers are asked in turn");
  const due = signersToSign(signers, task.signingOrder);
  if (!due.some((s) => s.userId === me.userId)) {
    const next = due[0]!;
    throw signerRefusal("forbidden", `It is not your turn to sign yet: ${next.name || next.email} signs first. You get an email when it is your turn.`);
  }
  return signers;
}

/** The document as the viewer signs it: the signed copy once someone has signed (later signers see and sign the earlier signatures), the original before. */
async function currentDocument(viewer: Viewer, task: Task, original: { storageKey: string; name: string; id: string; size: number }) {
  if (!task.signedFileId) return { ...original, copy: null };
  const copy = await db.fileEntry.findFirst({ where: { id: task.signedFileId, orgId: viewer.orgId, portalId: task.portalId, deletedAt: null } });
  if (!copy?.storageKey) throw invalidRequest("taskId: The signed copy is no longer in the portal; ask the firm to ask again with a new task");
  return { storageKey: copy.storageKey, name: copy.name, id: copy.id, size: copy.size, copy: { ...copy, storageKey: copy.storageKey } };
}

/**
 * A preview URL (inline, at most 5 minutes) of the document a Sign Document task asks the viewer
 * to sign: whoever may sign it may read it, download permission or not (they cannot sign what
 * they have not seen). Same refusals as signDocument.
 */
export async function getDocumentToSign({ viewer, taskId }: { viewer: Viewer; taskId: string }) {
  if (viewer.kind === "user" && viewer.client) throw forbidden("This cannot be done through the API");
  const { task, file } = await loadSigning(viewer, taskId);
  const signers = await checkSigner(db, viewer, task);
  const doc = await currentDocument(viewer, task, file);
  const url = await presignGet({ key: doc.storageKey, expiresIn: 300, contentType: "application/pdf", contentDisposition: "inline" });
  const signer = viewer.kind === "user" ? await db.user.findUnique({ where: { id: viewer.userId }, select: { name: true } }) : null;
  return {
    url,
    name: doc.name,
    size: doc.size,
    fileId: doc.id,
    placement: task.signaturePlacement,
    portalId: task.portalId,
    taskTitle: task.title,
    taskDescription: task.description,
    signerName: signer?.name ?? "",
    /** With named signers: how many there are and how many have signed. */
    signers: signers.length > 0 ? { total: signers.length, signed: signers.filter((s) => s.signedAt).length } : null,
  };
}

function signedName(original: string): string {
  const base = original.replace(/\.pdf$/i, "");
  return `${base} (signed).pdf`;
}

/**
 * Signs a Sign Document task's PDF for the viewer (a guest of the portal it is assigned to, or a
 * member): `consent` must be true; `signature` is a typed name or a drawn PNG. Returns the new
 * file. A task already Done is a conflict; bad input is a 400 naming `signature` or `consent`.
 */
export async function signDocument({
  viewer,
  taskId,
  signature,
  consent,
  ip,
  userAgent,
}: {
  viewer: Viewer;
  taskId: string;
  signature: SignatureInput;
  consent: boolean;
  ip: string;
  userAgent: string;
}) {
  if (viewer.kind !== "user") throw forbidden("Only a person can sign");
  if (viewer.client) throw forbidden("This cannot be done through the API");
  if (consent !== true)
    throw new AppError(
      "invalid_request",
      "consent: Consent to sign electronically is required",
      {},
      { field: "consent", userMessage: "Tick the box to agree to sign electronically" },
    );
  const appearance = appearanceOf(signature);
  // A signer in parallel signing may lose the race for the signed copy to another: signed again on the new copy.
  for (let attempt = 1; ; attempt++) {
    try {
      return await signOnce({ viewer, taskId, appearance, ip, userAgent });
    } catch (e) {
      if (!(e instanceof StaleCopy) || attempt >= 3) throw e instanceof StaleCopy ? conflict("Another signer signed at the same moment; sign again") : e;
    }
  }
}

/** The signed copy changed between reading it and committing (another signer's signature). */
class StaleCopy extends Error {}

async function signOnce({
  viewer,
  taskId,
  appearance,
  ip,
  userAgent,
}: {
  viewer: Viewer & { kind: "user" };
  taskId: string;
  appearance: SignatureAppearance;
  ip: string;
  userAgent: string;
}) {
  const { task, file } = await loadSigning(viewer, taskId);
  const signers = await checkSigner(db, viewer, task);
  const doc = await currentDocument(viewer, task, file);
  const [user, portal, org] = await Promise.all([
    db.user.findUniqueOrThrow({ where: { id: viewer.userId }, select: { name: true, email: true } }),
    db.portal.findUniqueOrThrow({ where: { id: task.portalId }, select: { name: true } }),
    db.organization.findUniqueOrThrow({ where: { id: viewer.orgId }, select: { name: true } }),
  ]);
  const signerName = user.name?.trim() || (appearance.kind === "typed" ? appearance.name : user.email);
  const placement = SignaturePlacementSchema.safeParse(task.signaturePlacement);
  const signedAt = new Date();
  const earlier = signers
    .filter((s) => s.signedAt)
    .sort((a, b) => a.signedAt!.getTime() - b.signedAt!.getTime())
    .map((s) => ({ name: s.name || s.email, email: s.email, signedAt: s.signedAt! }));
  const index = earlier.length + 1;
  const total = Math.max(1, signers.length);
  const isLast = index === total;
  const record = {
    signerName,
    signerEmail: user.email,
    signedAt,
    ip: ip.slice(0, 100),
    userAgent: userAgent.slice(0, 500),
    taskTitle: task.title,
    taskId: task.id,
    portalName: portal.name,
    portalId: task.portalId,
    organizationName: org.name,
    documentName: file.name,
    ...(total > 1 ? { sequence: { index, total, earlier } } : {}),
  };
  const identity = signingIdentity();
  const timeStamp = configuredTimeStamper();
  const previous = Buffer.from(await readObject(doc.storageKey, MAX_SIGN_BYTES * 2));
  const signed = doc.copy
    ? await signPdfIncrement({ previous, appearance, record: { ...record, sequence: { index, total, earlier } }, identity, timeStamp })
    : await signPdf({ original: previous, appearance, placement: placement.success ? placement.data : { signaturePage: true }, record, identity, timeStamp });
  const originalSha256 = "originalSha256" in signed ? signed.originalSha256 : undefined;

  const objectId = randomUUID();
  const storageKey = fileStorageKey(viewer.orgId, objectId);
  await uploadStream({ key: storageKey, body: Readable.from([signed.bytes]), contentType: "application/pdf" });
  try {
    const created = await withChange(async (tx) => {
      const locked = await lockTaskFor(tx, viewer, task.id, "completeAssignedTask");
      await checkSigner(tx, viewer, locked);
      // Another signature committed since this one was prepared: its bytes are not in ours.
      const copyNow = locked.signedFileId ? await tx.fileEntry.findUnique({ where: { id: locked.signedFileId }, select: { storageKey: true } }) : null;
      if (locked.signedFileId !== task.signedFileId || (doc.copy && copyNow?.storageKey !== doc.copy.storageKey)) throw new StaleCopy();
      const actor = actorOf(viewer);
      const base = { orgId: viewer.orgId, portalId: task.portalId, actor };
      await recordAudit(tx, {
        ...base,
        action: "task.signature_consented",
        targetType: "task",
        targetId: task.id,
        metadata: { consent: CONSENT_TEXT, ip, user_agent: userAgent.slice(0, 500), method: appearance.kind, document_file_id: file.id },
      });
      const fileData = { size: signed.bytes.length, storageKey, signed: isLast, signedAt: isLast ? signedAt : null };
      const saved = doc.copy
        ? await tx.fileEntry.update({ where: { id: doc.copy.id }, data: fileData })
        : await tx.fileEntry.create({
            data: {
              ...fileData,
              id: objectId,
              orgId: viewer.orgId,
              portalId: task.portalId,
              parentId: file.parentId,
              name: signedName(file.name),
              extension: "pdf",
              contentType: "application/pdf",
              status: "registered",
              registeredAt: signedAt,
              uploadedById: viewer.userId,
              taskId: task.id,
            },
          });
      if (signers.length > 0) {
        await tx.task.update({ where: { id: task.id }, data: { signedFileId: saved.id } });
        await tx.taskSigner.update({ where: { taskId_userId: { taskId: task.id, userId: viewer.userId } }, data: { signedAt } });
        await recordAudit(tx, {
          ...base,
          action: "task.signer_signed",
          targetType: "task",
          targetId: task.id,
          metadata: {
            file_id: saved.id,
            signer_email: user.email,
            signer_name: signerName,
            signature: index,
            signatures: total,
            stamped_page: signed.stampedPage,
            certificate_page: signed.certificatePage,
            time_stamped: timeStamp !== null,
          },
        });
      }
      if (!isLast) {
        await emailNextSigners(tx, { viewer, task: locked, signedBy: signerName, portalName: portal.name, orgName: org.name });
        return saved;
      }
      await recordAudit(tx, {
        ...base,
        action: "file.signed",
        targetType: "file",
        targetId: saved.id,
        metadata: {
          name: saved.name,
          task_id: task.id,
          original_file_id: file.id,
          ...(originalSha256 ? { original_sha256: originalSha256 } : {}),
          signer_email: user.email,
          signer_name: signerName,
          stamped_page: signed.stampedPage,
          certificate_page: signed.certificatePage,
          ...(total > 1 ? { signatures: total } : {}),
        },
      });
      await recordEvent(tx, {
        orgId: viewer.orgId,
        portalId: task.portalId,
        type: "file.signed",
        data: {
          file_id: saved.id,
          name: saved.name,
          task_id: task.id,
          signed_by_email: user.email,
          signed_by_name: signerName,
          signed_at: signedAt.toISOString(),
        },
      });
      await recordClientActivity(tx, viewer, { portalId: task.portalId, kind: "signed", title: task.title, taskId: task.id, fileId: saved.id });
      await markTaskDone(tx, { orgId: viewer.orgId, taskId: task.id, actor });
      return saved;
    });
    // The previous revision is inside the new bytes: its own object is no longer needed.
    if (doc.copy) await deleteObject(doc.copy.storageKey).catch(() => undefined);
    return created;
  } catch (e) {
    // The change did not commit (signed meanwhile, or a failure): the stored copy has no row.
    await deleteObject(storageKey).catch(() => undefined);
    throw e;
  }
}

/** Sequential signing: the next signer is told it is their turn (any order: everyone was asked with the task). */
async function emailNextSigners(
  tx: Tx,
  { viewer, task, signedBy, portalName, orgName }: { viewer: Viewer; task: Task; signedBy: string; portalName: string; orgName: string },
) {
  if (task.signingOrder !== "sequential") return;
  const signers = await loadSigners(tx, task.id);
  for (const next of signersToSign(signers, task.signingOrder)) {
    const content = turnToSignEmail({ orgName, portalName, taskTitle: task.title, signedBy, signUrl: guestTaskUrl(viewer.orgId, task.portalId, task) });
    await queueEmail(tx, { orgId: viewer.orgId, to: next.email, template: "turn-to-sign", ...content });
  }
}
