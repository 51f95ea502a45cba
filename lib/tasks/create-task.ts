import { randomUUID } from "node:crypto";
import { requirePortal } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { AUDIT_COLUMNS, AUDIT_VALUES, auditRecordset, auditRow } from "@/lib/audit/record-audit";
import { afterCommit, db } from "@/lib/db";
import { invalidField, invalidRequest, notFound } from "@/lib/errors";
import { kickEventRelay } from "@/lib/events/event-relay";
import { withChange } from "@/lib/events/with-change";
import { OUTBOX_COLUMNS, OUTBOX_VALUES, outboxRecordset, outboxRow, type OutboxRow } from "@/lib/events/record-event";
import { isUuid } from "@/lib/ids";
import { enumValue, jsonRecordset, plusInterval, rows, sql } from "@/lib/sql";
import { fromApiActionType } from "./action-types";
import { setTaskFormFields } from "./form-fields";
import { setSignDocument } from "./sign-document-task";
import { setSigners } from "./signers";
import { checkTaskContent } from "./task-content";
import { resolveAssignees, type ResolvedAssignee } from "./resolve-assignees";
import { CreateTaskBodySchema, type CreateTaskBody } from "./schemas";
import { actorUserId } from "./task-changes";

export type CreateTaskInput = { viewer: Viewer; portalId: string } & CreateTaskBody;

/**
 * Creates an Open task in a portal with its assignees (D17). The task, its assignees, the portal's
 * activity, the audit row, `task.created` and (with reminders) `task.reminders_changed` commit
 * together: they are written by one statement (see insertTaskStatement), atomic on its own. With a Fill
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
  if (body.signing_order !== undefined && body.signers === undefined) throw invalidField("signers", "Required with signing_order");
  if (body.form_fields === undefined && body.document_file_id === undefined && body.signers === undefined) return insertTask(viewer, portalId, body);
  return withChange(async () => {
    const { taskId } = await insertTask(viewer, portalId, body);
    if (body.form_fields) await setTaskFormFields({ viewer, taskId, fields: body.form_fields });
    if (body.document_file_id !== undefined) {
      await setSignDocument({ viewer, taskId, fileId: body.document_file_id, placement: body.signature_placement ?? { signaturePage: true } });
    }
    if (body.signers !== undefined) await setSigners({ viewer, taskId, signers: body.signers, order: body.signing_order ?? "sequential" });
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
    const [portal] = await rows(sql.selectFrom("Portal").select("id").where("id", "=", portalId).where("orgId", "=", orgId).where("deletedAt", "is", null));
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

  const inserted = await rows(
    insertTaskStatement({
      taskId,
      portalId,
      orgId,
      title: body.title,
      description: body.description ?? "",
      actionType: fromApiActionType(actionType),
      dueDate,
      sendReminder,
      createdById: actorUserId(actor),
      at,
      assignees: assignees.map((a) => ({ id: randomUUID(), userId: a.userId, type: a.type, name: a.name, email: a.email })),
      audit,
      events,
    }),
  );
  // No row: the portal is not an active portal of the organization (nothing was written).
  if (inserted.length === 0) throw notFound("Portal");
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
 * (`lastActivityAt` earlier than `at`); a concurrent creation in the same portal waits for this statement's
 * row lock and re-checks that condition on the committed row (read committed), so the latest
 * time wins. Timestamps are UTC wall time (ISO strings cast to timestamp, as Prisma writes them);
 * the outbox rows' createdAt follows their order (1 ms apart), so the relay hands them over in it.
 */
function insertTaskStatement(p: {
  taskId: string;
  portalId: string;
  orgId: string;
  title: string;
  description: string;
  actionType: ReturnType<typeof fromApiActionType>;
  dueDate: Date | null;
  sendReminder: boolean;
  createdById: string | null;
  at: Date;
  assignees: { id: string; userId: string; type: ResolvedAssignee["type"]; name: string | null; email: string | null }[];
  audit: ReturnType<typeof auditRow>;
  events: OutboxRow[];
}) {
  const at = p.at;
  return sql
    .with("task", (db) =>
      db
        .insertInto("Task")
        .columns([
          "id",
          "orgId",
          "portalId",
          "title",
          "description",
          "actionType",
          "status",
          "dueDate",
          "sendReminder",
          "createdById",
          "createdAt",
          "updatedAt",
        ])
        .expression(
          db
            .selectFrom("Portal as p")
            .select((eb) => [
              eb.cast(eb.val(p.taskId), "uuid").as("id"),
              "p.orgId",
              "p.id as portalId",
              eb.cast(eb.val(p.title), "text").as("title"),
              eb.cast(eb.val(p.description), "text").as("description"),
              enumValue(p.actionType, "TaskActionType").as("actionType"),
              enumValue("Open", "TaskStatus").as("status"),
              eb.cast(eb.val(p.dueDate), "timestamp(3)").as("dueDate"),
              eb.cast(eb.val(p.sendReminder), "boolean").as("sendReminder"),
              eb.cast(eb.val(p.createdById), "uuid").as("createdById"),
              eb.cast(eb.val(at), "timestamp(3)").as("createdAt"),
              eb.cast(eb.val(at), "timestamp(3)").as("updatedAt"),
            ])
            .where("p.id", "=", p.portalId)
            .where("p.orgId", "=", p.orgId)
            .where("p.deletedAt", "is", null),
        )
        .returning(["id", "portalId"]),
    )
    .with("assignees", (db) =>
      db
        .insertInto("TaskAssignee")
        .columns(["id", "taskId", "userId", "type", "name", "email"])
        .expression(
          db
            .selectFrom([
              "task",
              jsonRecordset(JSON.stringify(p.assignees), "a", { id: "uuid", userId: "uuid", type: "AssigneeType", name: "text", email: "text" }),
            ])
            .select(["a.id", "task.id as taskId", "a.userId", "a.type", "a.name", "a.email"]),
        ),
    )
    .with("touched", (db) =>
      db
        .updateTable("Portal")
        .set({ lastActivityAt: at, updatedAt: at })
        .where("id", "=", db.selectFrom("task").select("task.portalId"))
        .where("orgId", "=", p.orgId)
        .where((eb) => eb.or([eb("lastActivityAt", "is", null), eb("lastActivityAt", "<", at)])),
    )
    .with("audit", (db) =>
      db
        .insertInto("AuditLog")
        .columns(AUDIT_COLUMNS)
        .expression(
          db
            .selectFrom(["task", auditRecordset([p.audit])])
            .select((eb) => [eb.fn<string>("gen_random_uuid").as("id"), ...AUDIT_VALUES, eb.cast(eb.val(at), "timestamp(3)").as("createdAt")]),
        ),
    )
    .with("outbox", (db) =>
      db
        .insertInto("Event")
        .columns(OUTBOX_COLUMNS)
        .expression(
          db
            .selectFrom(["task", outboxRecordset(p.events)])
            .select((eb) => [
              ...OUTBOX_VALUES,
              eb.cast(eb.val(at), "timestamp(3)").as("occurredAt"),
              plusInterval(eb.cast(eb.val(at), "timestamp(3)"), eb.ref("e.n"), "millisecond").as("createdAt"),
            ]),
        ),
    )
    .selectFrom("task")
    .select("task.id");
}
