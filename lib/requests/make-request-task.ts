import { randomUUID } from "node:crypto";
import { CopyObjectCommand, DeleteObjectCommand } from "@aws-sdk/client-s3";
import type { Viewer } from "@/lib/access/viewer";
import { afterRollback, db } from "@/lib/db";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { createTask } from "@/lib/tasks/create-task";
import { checkFormFields, setTaskFormFields } from "@/lib/tasks/form-fields";
import { setSignDocument } from "@/lib/tasks/sign-document-task";
import { specError } from "./parse-spec";
import type { RequestDue, RequestSpec } from "./schemas";

const DAY_MS = 86_400_000;

/** The due date of a task made at `anchor`: fixed, or `days` after the anchor's day (end of that day, UTC). */
function dueDateOf(due: RequestDue, anchor: Date): string | undefined {
  if (due.kind === "none") return undefined;
  if (due.kind === "date") return new Date(due.date).toISOString();
  const day = Date.UTC(anchor.getUTCFullYear(), anchor.getUTCMonth(), anchor.getUTCDate());
  return new Date(day + due.days * DAY_MS + DAY_MS - 1000).toISOString();
}

/**
 * What every maker checks once, before any task is made (400 naming the field): reminders need a
 * due date, a Fill Form its fields, a Sign Document its PDF (a registered PDF of the organization).
 */
export async function checkRequestSpec(viewer: Viewer, spec: RequestSpec): Promise<void> {
  if (spec.send_reminder && spec.due.kind === "none") throw specError("send_reminder", "Requires a due date");
  if (spec.action_type === "Fill Form") {
    if (spec.form_fields.length === 0) throw specError("form_fields", "A Fill Form request needs at least one field");
    checkFormFields(spec.form_fields);
  } else if (spec.form_fields.length > 0) throw specError("form_fields", "Only a Fill Form request has form fields");
  if (spec.action_type === "Sign Document") {
    if (!spec.document_file_id) throw specError("document_file_id", "A Sign Document request needs its PDF");
    await documentOf(viewer.orgId, spec.document_file_id);
  } else if (spec.document_file_id) throw specError("document_file_id", "Only a Sign Document request has a document");
}

async function documentOf(orgId: string, fileId: string) {
  const file = await db.fileEntry.findFirst({
    where: { id: fileId, orgId, isFolder: false, status: "registered", deletedAt: null, portal: { deletedAt: null } },
    select: { id: true, name: true, extension: true, contentType: true, size: true, storageKey: true },
  });
  const pdf = file && (file.extension === "pdf" || file.contentType?.split(";")[0]?.trim().toLowerCase() === "application/pdf");
  if (!file || !pdf || !file.storageKey) throw specError("document_file_id", "Not a PDF of this organization");
  return { ...file, storageKey: file.storageKey };
}

/** A copy of the document in the portal (its own object and row), removed again if the transaction rolls back. */
async function copyDocument(orgId: string, fileId: string, portalId: string, uploadedById: string | null): Promise<string> {
  const source = await documentOf(orgId, fileId);
  const id = randomUUID();
  const storageKey = fileStorageKey(orgId, id);
  await s3().send(new CopyObjectCommand({ Bucket: bucket(), Key: storageKey, CopySource: `${bucket()}/${source.storageKey}` }));
  afterRollback(() =>
    s3()
      .send(new DeleteObjectCommand({ Bucket: bucket(), Key: storageKey }))
      .then(() => undefined),
  );
  await db.fileEntry.create({
    data: {
      id,
      orgId,
      portalId,
      name: source.name,
      extension: source.extension,
      contentType: source.contentType,
      size: source.size,
      storageKey,
      uploadedById,
      registeredAt: new Date(),
    },
  });
  return id;
}

/**
 * Makes one task of a stored request in a portal, through createTask (its audit row and one
 * `task.created`), then its form fields or its document. Call it inside runInTransaction: the
 * task and its parts commit together with the caller's bookkeeping (the bulk item, the
 * occurrence) or not at all. Assigned to `guestIds`.
 */
export async function makeRequestTask({
  viewer,
  portalId,
  spec,
  anchor,
  guestIds,
}: {
  viewer: Viewer;
  portalId: string;
  spec: RequestSpec;
  anchor: Date;
  guestIds: string[];
}): Promise<{ taskId: string }> {
  const { taskId } = await createTask({
    viewer,
    portalId,
    title: spec.title,
    description: spec.description,
    action_type: spec.action_type,
    due_date: dueDateOf(spec.due, anchor),
    send_reminder: spec.send_reminder,
    assigned_guest_ids: guestIds,
  });
  if (spec.action_type === "Fill Form")
    await setTaskFormFields({ viewer, taskId, fields: spec.form_fields as Parameters<typeof setTaskFormFields>[0]["fields"] });
  if (spec.action_type === "Sign Document" && spec.document_file_id) {
    const uploadedById = viewer.kind === "user" ? viewer.userId : null;
    const fileId = await copyDocument(viewer.orgId, spec.document_file_id, portalId, uploadedById);
    await setSignDocument({ viewer, taskId, fileId, placement: spec.placement });
  }
  return { taskId };
}

/** The user ids of a portal's guests (the assignees of a request sent to the portal). */
export async function portalGuestIds(orgId: string, portalId: string): Promise<string[]> {
  const rows = await db.portalGuest.findMany({ where: { orgId, portalId }, select: { userId: true }, orderBy: { invitedAt: "asc" } });
  return rows.map((r) => r.userId);
}
