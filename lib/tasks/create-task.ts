import { randomUUID } from "node:crypto";
import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { AUDIT_RECORDSET, auditRow } from "@/lib/audit/record-audit";
import { afterCommit, db, query } from "@/lib/db";
import { invalidField, invalidRequest, notFound } from "@/lib/errors";
import { kickEventRelay } from "@/lib/events/event-relay";
import { withChange } from "@/lib/events/with-change";
import { OUTBOX_RECORDSET, outboxJson, outboxRow, type OutboxRow } from "@/lib/events/record-event";
import { isUuid } from "@/lib/ids";
import { fromApiActionType } from "./action-types";
import { setTaskFormFields } from "./form-fields";
import { setSignDocument } from "./sign-document-task";
import { checkTaskContent } from "./task-content";
import { resolveAssignees, type ResolvedAssignee } from "./resolve-assignees";
import { CreateTaskBodySchema, type CreateTaskBody } from "./schemas";
import { actorUserId } from "./task-changes";

export type CreateTaskInput = { viewer: Viewer; portalId: string } & CreateTaskBody;

/**
 * Creates an Open task in a portal with its assignees (D17). The task, its assignees, the portal's
 * activity, the audit row, `task.created` and (with reminders) `task.reminders_changed` commit
 * together: they are written by one statement (see INSERT_TASK), atomic on its own. With a Fill
 * Form's `form_fields` or a Sign Document's `document_file_id` the statement and the calls that
 * set them (setTaskFormFields, setSignDocument: the web's) share one transaction, so a refused
 * field or document creates nothing.
 */
export async function createTask({ viewer, portalId, ...input }: CreateTaskInput): Promise<{ taskId: string }> {
  requirePortal(viewer, portalId, "manageTasks");
  const body = CreateTaskBodySchema.parse(input);
  const actionType = body.action_type ?? "General";
  checkTaskContent(fromApiActionType(actionType), body);
  if (body.signature_placement !== undefined && body.document_file_id === undefined)
    throw invalidField("document_file_id", "Required with signature_placement");
  if (body.form_fields === undefined && body.document_file_id === undefined) return insertTask(viewer, portalId, body);
  return withChange(async () => {
    const { taskId } = await insertTask(viewer, portalId, body);
    if (body.form_fields) await setTaskFormFields({ viewer, taskId, fields: body.form_fields });
    if (body.document_file_id !== undefined) {
      await setSignDocument({ viewer, taskId, fileId: body.document_file_id, placement: body.signature_placement ?? { signaturePage: true } });
    }
    return { taskId };
  });
}

async function insertTask(viewer: Viewer, portalId: string, body: CreateTaskBody): Promise<{ taskId: string }> {
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  const sendReminder = body.send_reminder ?? false;
  if (sendReminder && body.due_date === undefined) throw invalidRequest("send_reminder: Requires due_date");
  const actionType = body.action_type ?? "General";
  const dueDate = body.due_date === undefined ? null : new Date(body.due_date);
  if (!isUuid(portalId)) throw notFound("Portal");

  // Assignees are checked against the portal's guests and the organization's members first (400
  // naming the first other id), after the portal's existence (404 comes first, as before). Read
  // committed, as the reads of the interactive transaction this replaces were: a guest removed
  // between this read and the insert is as possible as it was then.
  let assignees: ResolvedAssignee[] = [];
  if ((body.assigned_guest_ids?.length ?? 0) + (body.assigned_member_ids?.length ?? 0) > 0) {
    const [portal] = await query<{ id: string }>(`SELECT "id" FROM "Portal" WHERE "id" = $1::uuid AND "orgId" = $2::uuid AND "deletedAt" IS NULL`, [
      portalId,
      orgId,
    ]);
    if (!portal) throw notFound("Portal");
    assignees = await resolveAssignees(db, { orgId, portalId, guestIds: body.assigned_guest_ids, memberIds: body.assigned_member_ids });
  }

  const taskId = randomUUID();
  const at = new Date();
  const events: OutboxRow[] = [
    outboxRow({
      orgId,
      portalId,
      type: "task.created",
      data: { task_id: taskId, title: body.title, action_type: actionType, due_date: dueDate?.toISOString() ?? null, status: "Open" },
    }),
  ];
  // The internal event that starts the task's reminder run (D18), as recordRemindersChanged writes it.
  if (sendReminder) {
    events.push(
      outboxRow({
        orgId,
        portalId,
        type: "task.reminders_changed",
        data: { task_id: taskId, due_date: dueDate?.toISOString() ?? null, send_reminder: true, status: "Open", deleted: false },
      }),
    );
  }
  const audit = auditRow({
    orgId,
    portalId,
    actor,
    action: "task.created",
    targetType: "task",
    targetId: taskId,
    metadata: {
      title: body.title,
      action_type: actionType,
      due_date: dueDate?.toISOString() ?? null,
      send_reminder: sendReminder,
      assignees: assignees.map((a) => ({ user_id: a.userId, type: a.type })),
    },
  });

  const rows = await query<{ id: string }>(INSERT_TASK, [
    taskId,
    portalId,
    orgId,
    body.title,
    body.description ?? "",
    fromApiActionType(actionType),
    dueDate?.toISOString() ?? null,
    sendReminder,
    actorUserId(actor),
    at.toISOString(),
    JSON.stringify(assignees.map((a) => ({ id: randomUUID(), userId: a.userId, type: a.type, name: a.name, email: a.email }))),
    JSON.stringify([audit]),
    outboxJson(events),
  ]);
  // No row: the portal is not an active portal of the organization (nothing was written).
  if (rows.length === 0) throw notFound("Portal");
  afterCommit(kickEventRelay);
  return { taskId };
}

/**
 * The whole creation as one statement (not twelve round trips in an interactive transaction with
 * the portal row locked from its update to the commit, which serialized every task of a
 * portal behind the rest of the transaction's round trips). One statement is atomic on its own
 * (in an open ambient transaction it is part of it): every CTE sees the same snapshot and all of
 * them run to completion or none does. The task is inserted only if the portal is an active
 * portal of the organization; every other write hangs off the inserted task (`FROM task`), so a
 * missing portal writes nothing and returns no row. The portal's activity moves forward only
 * (`lastActivityAt < $10`); a concurrent creation in the same portal waits for this statement's
 * row lock and re-checks that condition on the committed row (read committed), so the latest
 * time wins. Timestamps are UTC wall time (ISO strings cast to timestamp, as Prisma writes them);
 * the outbox rows' createdAt follows their order (1 ms apart), so the relay hands them over in it.
 */
const INSERT_TASK = `
WITH task AS (
  INSERT INTO "Task" ("id", "orgId", "portalId", "title", "description", "actionType", "status", "dueDate", "sendReminder", "createdById", "createdAt", "updatedAt")
  SELECT $1::uuid, p."orgId", p."id", $4, $5, $6::"TaskActionType", 'Open', $7::timestamp(3), $8::boolean, $9::uuid, $10::timestamp(3), $10::timestamp(3)
  FROM "Portal" p WHERE p."id" = $2::uuid AND p."orgId" = $3::uuid AND p."deletedAt" IS NULL
  RETURNING "id", "portalId"
), assignees AS (
  INSERT INTO "TaskAssignee" ("id", "taskId", "userId", "type", "name", "email")
  SELECT a."id", task."id", a."userId", a."type", a."name", a."email"
  FROM task, jsonb_to_recordset($11::jsonb) AS a("id" uuid, "userId" uuid, "type" "AssigneeType", "name" text, "email" text)
), touched AS (
  UPDATE "Portal" SET "lastActivityAt" = $10::timestamp(3), "updatedAt" = $10::timestamp(3)
  WHERE "id" = (SELECT "portalId" FROM task) AND "orgId" = $3::uuid AND ("lastActivityAt" IS NULL OR "lastActivityAt" < $10::timestamp(3))
), audit AS (
  INSERT INTO "AuditLog" ("id", "orgId", "portalId", "actorType", "actorUserId", "oauthClientId", "action", "targetType", "targetId", "metadata", "createdAt")
  SELECT gen_random_uuid(), a."orgId", a."portalId", a."actorType", a."actorUserId", a."oauthClientId", a."action", a."targetType", a."targetId", a."metadata", $10::timestamp(3)
  FROM task, jsonb_to_recordset($12::jsonb) AS a${AUDIT_RECORDSET}
), outbox AS (
  INSERT INTO "Event" ("id", "orgId", "portalId", "type", "data", "occurredAt", "createdAt")
  SELECT e."id", e."orgId", e."portalId", e."type", e."data", $10::timestamp(3), $10::timestamp(3) + e."n" * interval '1 millisecond'
  FROM task, jsonb_to_recordset($13::jsonb) AS e${OUTBOX_RECORDSET}
)
SELECT "id" FROM task`;
