import { z } from "zod";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { conflict, invalidField } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { lockTaskFor, touchPortal } from "./task-changes";

// A Sign Document task's document (a PDF file of the task's portal) and where the signature goes.

const fraction = z.number().min(0).max(1);

/** On a signature page appended to the document, or a box on one page in fractions of the page (0-1, from the top left). */
export const SignaturePlacementSchema = z.union([
  z.strictObject({ signaturePage: z.literal(true) }),
  z
    .strictObject({ page: z.number().int().min(1), x: fraction, y: fraction, width: fraction.positive(), height: fraction.positive() })
    .refine((p) => p.x + p.width <= 1 && p.y + p.height <= 1, { message: "The box must lie within the page" }),
]);
export type SignaturePlacement = z.infer<typeof SignaturePlacementSchema>;

/**
 * Sets the document to sign and the placement of a Sign Document task (members and admins). The
 * file must be a registered, not deleted PDF (type `application/pdf` or extension `pdf`) of the
 * task's portal; anything else is 400 naming `document_file_id`, a bad placement 400 naming
 * `signature_placement` (the API's names; the web form's document field has the same name).
 */
export async function setSignDocument({
  viewer,
  taskId,
  fileId,
  placement,
}: {
  viewer: Viewer;
  taskId: string;
  fileId: string;
  placement: SignaturePlacement;
}) {
  const parsed = SignaturePlacementSchema.safeParse(placement);
  if (!parsed.success) throw invalidField("signature_placement", parsed.error.issues[0]!.message);
  const { orgId } = viewer;
  return db.$transaction(async (tx) => {
    const task = await lockTaskFor(tx, viewer, taskId, "manageTasks");
    if (task.actionType !== "SignDocument") throw invalidField("document_file_id", "Only a Sign Document task has a document to sign");
    if (task.signedFileId) throw conflict("Signing has started: the document can no longer change; ask again with a new task");
    const file = isUuid(fileId)
      ? await tx.fileEntry.findFirst({
          where: { id: fileId, orgId, portalId: task.portalId, isFolder: false, status: "registered", deletedAt: null },
          select: { id: true, name: true, contentType: true, extension: true },
        })
      : null;
    if (!file) throw invalidField("document_file_id", "Not a file of this portal");
    if (!(file.contentType?.split(";")[0]?.trim().toLowerCase() === "application/pdf" || file.extension === "pdf"))
      throw invalidField("document_file_id", "The document to sign must be a PDF");
    const updated = await tx.task.update({ where: { id: task.id }, data: { documentFileId: file.id, signaturePlacement: parsed.data } });
    await touchPortal(tx, { orgId, portalId: task.portalId });
    await recordAudit(tx, {
      orgId,
      portalId: task.portalId,
      actor: actorOf(viewer),
      action: "task.document_set",
      targetType: "task",
      targetId: task.id,
      metadata: { file_id: file.id, name: file.name, placement: parsed.data },
    });
    return { documentFileId: updated.documentFileId, signaturePlacement: parsed.data };
  });
}
