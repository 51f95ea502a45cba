import type { Actor } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Tx } from "@/lib/db";
import { invalidField } from "@/lib/errors";
import type { TaskActionType } from "@/lib/generated/prisma/client";
import { resolveAssignees } from "./resolve-assignees";

// What a task request may set beyond its own columns: a Fill Form's fields, a Sign Document's
// document, and (on a change) its assignees.

interface ContentInput {
  form_fields?: unknown;
  document_file_id?: string;
  signature_placement?: unknown;
  signers?: unknown;
  signing_order?: unknown;
}

/** 400 naming the field when the request sets content the task's type does not have. */
export function checkTaskContent(actionType: TaskActionType, input: ContentInput): void {
  if (input.form_fields !== undefined && actionType !== "FillForm") throw invalidField("form_fields", "Only a Fill Form task has form fields");
  for (const field of ["document_file_id", "signature_placement"] as const) {
    if (input[field] !== undefined && actionType !== "SignDocument") throw invalidField(field, "Only a Sign Document task has a document to sign");
  }
  for (const field of ["signers", "signing_order"] as const) {
    if (input[field] !== undefined && actionType !== "SignDocument") throw invalidField(field, "Only a Sign Document task has signers");
  }
}

/**
 * Replaces a task's assignees of each kind given (`guestIds`, `memberIds`; a kind not given stays
 * as it is), checked as at creation (D17: 400 naming the first id that is not a guest of the
 * portal or a member of the organization). Writes nothing when the set does not change; otherwise
 * the rows and a `task.assignees_changed` audit row. Returns whether it changed.
 */
export async function replaceAssignees(
  tx: Tx,
  {
    orgId,
    task,
    actor,
    guestIds,
    memberIds,
  }: { orgId: string; task: { id: string; portalId: string }; actor: Actor; guestIds?: string[]; memberIds?: string[] },
): Promise<boolean> {
  if (guestIds === undefined && memberIds === undefined) return false;
  const current = await tx.taskAssignee.findMany({ where: { taskId: task.id }, select: { userId: true, type: true } });
  const ofType = (type: "guest" | "member") => current.filter((a) => a.type === type).map((a) => a.userId);
  const resolved = await resolveAssignees(tx, {
    orgId,
    portalId: task.portalId,
    guestIds: guestIds ?? ofType("guest"),
    memberIds: memberIds ?? ofType("member"),
  });
  const key = (a: { userId: string; type: string }) => `${a.type}:${a.userId}`;
  const before = new Set(current.map(key));
  if (before.size === resolved.length && resolved.every((a) => before.has(key(a)))) return false;
  await tx.taskAssignee.deleteMany({ where: { taskId: task.id } });
  await tx.taskAssignee.createMany({ data: resolved.map((a) => ({ taskId: task.id, userId: a.userId, type: a.type, name: a.name, email: a.email })) });
  await recordAudit(tx, {
    orgId,
    portalId: task.portalId,
    actor,
    action: "task.assignees_changed",
    targetType: "task",
    targetId: task.id,
    metadata: { assignees: resolved.map((a) => ({ user_id: a.userId, type: a.type })) },
  });
  return true;
}
