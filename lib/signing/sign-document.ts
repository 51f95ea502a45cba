import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { AppError, conflict, forbidden, invalidRequest, notFound } from "@/lib/errors";
import { recordEvent } from "@/lib/events/record-event";
import { withChange } from "@/lib/events/with-change";
import { isUuid } from "@/lib/ids";
import { deleteObject, presignGet, readObject } from "@/lib/storage/objects";
import { fileStorageKey } from "@/lib/storage/s3";
import { uploadStream } from "@/lib/storage/upload-stream";
import { SignaturePlacementSchema } from "@/lib/tasks/sign-document-task";
import { checkCompleter, lockTaskToComplete } from "@/lib/tasks/task-answers";
import { markTaskDone } from "@/lib/tasks/complete-task";
import { signingIdentity } from "./certificate";
import { signPdf, type SignatureAppearance } from "./sign-pdf";

// A Sign Document task signed by its signer: the original PDF stays; the signed copy (appearance,
// certificate page, PAdES signature) is a new file of the portal beside it, linked to the task;
// `file.signed` fires (D21) and the task completes, with an audit row for each step.

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

/**
 * A preview URL (inline, at most 5 minutes) of the document a Sign Document task asks the viewer
 * to sign: whoever may sign it may read it, download permission or not (they cannot sign what
 * they have not seen). Same refusals as signDocument.
 */
export async function getDocumentToSign({ viewer, taskId }: { viewer: Viewer; taskId: string }) {
  if (viewer.kind === "user" && viewer.client) throw forbidden("This cannot be done through the API");
  const { task, file } = await loadSigning(viewer, taskId);
  await checkCompleter(db, viewer, task, "SignDocument");
  const url = await presignGet({ key: file.storageKey, expiresIn: 300, contentType: "application/pdf", contentDisposition: "inline" });
  const signer = viewer.kind === "user" ? await db.user.findUnique({ where: { id: viewer.userId }, select: { name: true } }) : null;
  return {
    url,
    name: file.name,
    size: file.size,
    fileId: file.id,
    placement: task.signaturePlacement,
    portalId: task.portalId,
    taskTitle: task.title,
    taskDescription: task.description,
    signerName: signer?.name ?? "",
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
  const { task, file } = await loadSigning(viewer, taskId);
  await checkCompleter(db, viewer, task, "SignDocument");
  const appearance = appearanceOf(signature);
  const [user, portal, org] = await Promise.all([
    db.user.findUniqueOrThrow({ where: { id: viewer.userId }, select: { name: true, email: true } }),
    db.portal.findUniqueOrThrow({ where: { id: task.portalId }, select: { name: true } }),
    db.organization.findUniqueOrThrow({ where: { id: viewer.orgId }, select: { name: true } }),
  ]);
  const signerName = user.name?.trim() || (appearance.kind === "typed" ? appearance.name : user.email);
  const placement = SignaturePlacementSchema.safeParse(task.signaturePlacement);
  const signedAt = new Date();
  const signed = await signPdf({
    original: await readObject(file.storageKey, MAX_SIGN_BYTES),
    appearance,
    placement: placement.success ? placement.data : { signaturePage: true },
    record: {
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
    },
    identity: signingIdentity(),
  });

  const id = randomUUID();
  const storageKey = fileStorageKey(viewer.orgId, id);
  await uploadStream({ key: storageKey, body: Readable.from([signed.bytes]), contentType: "application/pdf" });
  try {
    return await withChange(async (tx) => {
      await lockTaskToComplete(tx, viewer, task.id, "SignDocument");
      const actor = actorOf(viewer);
      const base = { orgId: viewer.orgId, portalId: task.portalId, actor };
      await recordAudit(tx, {
        ...base,
        action: "task.signature_consented",
        targetType: "task",
        targetId: task.id,
        metadata: { consent: CONSENT_TEXT, ip, user_agent: userAgent.slice(0, 500), method: appearance.kind, document_file_id: file.id },
      });
      const created = await tx.fileEntry.create({
        data: {
          id,
          orgId: viewer.orgId,
          portalId: task.portalId,
          parentId: file.parentId,
          name: signedName(file.name),
          extension: "pdf",
          contentType: "application/pdf",
          size: signed.bytes.length,
          status: "registered",
          registeredAt: signedAt,
          storageKey,
          uploadedById: viewer.userId,
          taskId: task.id,
          signed: true,
          signedAt,
        },
      });
      await recordAudit(tx, {
        ...base,
        action: "file.signed",
        targetType: "file",
        targetId: created.id,
        metadata: {
          name: created.name,
          task_id: task.id,
          original_file_id: file.id,
          original_sha256: signed.originalSha256,
          signer_email: user.email,
          signer_name: signerName,
          stamped_page: signed.stampedPage,
          certificate_page: signed.certificatePage,
        },
      });
      await recordEvent(tx, {
        orgId: viewer.orgId,
        portalId: task.portalId,
        type: "file.signed",
        data: {
          file_id: created.id,
          name: created.name,
          task_id: task.id,
          signed_by_email: user.email,
          signed_by_name: signerName,
          signed_at: signedAt.toISOString(),
        },
      });
      await markTaskDone(tx, { orgId: viewer.orgId, taskId: task.id, actor });
      return created;
    });
  } catch (e) {
    // The change did not commit (signed meanwhile, or a failure): the stored copy has no row.
    await deleteObject(storageKey).catch(() => undefined);
    throw e;
  }
}
