import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Tx } from "@/lib/db";
import { AppError, conflict, forbidden, invalidRequest } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import type { Task, TaskActionType, TaskFormField } from "@/lib/generated/prisma/client";
import { recordClientActivity } from "@/lib/inbox/record-activity";
import { markTaskDone } from "./complete-task";
import { lockTaskFor } from "./task-changes";

// The client's side of tasks: a Question answered, a Fill Form submitted, a General task marked
// done. Each locks the task, checks that the viewer may complete it, stores what was given and
// completes the task in one transaction (audit rows and `task.completed` with it).

const MAX_ANSWER_LENGTH = 10_000;

/**
 * The task, locked, if the viewer may complete it as `actionType`: members and admins always; a
 * guest of the portal (view) when the task is assigned to them or to nobody. A task already Done
 * is a conflict (nothing is stored twice).
 */
async function lockTaskToComplete(tx: Tx, viewer: Viewer, taskId: string, actionType: TaskActionType) {
  const task = await lockTaskFor(tx, viewer, taskId, "completeAssignedTask");
  await checkCompleter(tx, viewer, task, actionType);
  return task;
}

/** The checks of lockTaskToComplete on a task already read (and access-checked) without a lock. */
export async function checkCompleter(tx: Tx, viewer: Viewer, task: Task, actionType: TaskActionType): Promise<void> {
  if (task.actionType !== actionType) throw invalidRequest(`taskId: This is not a ${actionType} task`);
  if (viewer.kind === "user" && viewer.role === "guest") {
    const assignees = await tx.taskAssignee.findMany({ where: { taskId: task.id }, select: { userId: true } });
    if (assignees.length > 0 && !assignees.some((a) => a.userId === viewer.userId)) throw forbidden("This task is assigned to someone else");
  }
  if (task.status === "Done") throw conflict("This task is already done");
}

/** A Question answered in text (files go with it as uploads linked to the task); the task completes. */
export async function answerQuestion({ viewer, taskId, text }: { viewer: Viewer; taskId: string; text: string }) {
  const answer = text.trim();
  if (!answer) throw new AppError("invalid_request", "answer: Write your answer", {}, { field: "answer", userMessage: "Write your answer before sending it" });
  if (answer.length > MAX_ANSWER_LENGTH)
    throw new AppError(
      "invalid_request",
      `answer: At most ${MAX_ANSWER_LENGTH} characters`,
      {},
      { field: "answer", userMessage: `Keep the answer under ${MAX_ANSWER_LENGTH} characters` },
    );
  if (viewer.kind !== "user") throw forbidden("Only a person can answer");
  return withChange(async (tx) => {
    const task = await lockTaskToComplete(tx, viewer, taskId, "Question");
    await tx.taskAnswer.create({ data: { taskId, userId: viewer.userId, value: answer } });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId: task.portalId,
      actor: actorOf(viewer),
      action: "task.answered",
      targetType: "task",
      targetId: taskId,
      metadata: { length: answer.length },
    });
    await recordClientActivity(tx, viewer, { portalId: task.portalId, kind: "answer", title: task.title, taskId });
    return markTaskDone(tx, { orgId: viewer.orgId, taskId, actor: actorOf(viewer) });
  });
}

/** A form field's problem: `field` is `field_<id>` (the form input's name). */
function fieldError(field: TaskFormField, message: string): AppError {
  return new AppError("invalid_request", `field_${field.id}: ${field.label}: ${message}`, {}, { field: `field_${field.id}`, userMessage: message });
}

const TRUE_VALUES = new Set(["true", "on", "yes", "1"]);

/** One field's submitted value as stored ("" for a blank optional field), or the field's error. */
function normalizeFieldValue(field: TaskFormField, raw: string | undefined): string {
  const value = (raw ?? "").trim();
  if (field.kind === "checkbox") {
    const checked = TRUE_VALUES.has(value.toLowerCase());
    if (field.required && !checked) throw fieldError(field, "Tick this box to continue");
    return checked ? "true" : "false";
  }
  if (!value) {
    if (field.required) throw fieldError(field, "This field is required");
    return "";
  }
  switch (field.kind) {
    case "number":
      if (!/^-?\d+(\.\d+)?$/.test(value.replace(/[\s,]/g, "")) || !Number.isFinite(Number(value.replace(/[\s,]/g, ""))))
        throw fieldError(field, "Enter a number, like 1200 or 12.5");
      return String(Number(value.replace(/[\s,]/g, "")));
    case "date": {
      const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
      const date = d ? new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]))) : null;
      if (!date || date.toISOString().slice(0, 10) !== value) throw fieldError(field, "Enter a date as YYYY-MM-DD");
      return value;
    }
    case "select":
      if (!field.options.includes(value)) throw fieldError(field, `Choose one of: ${field.options.join(", ")}`);
      return value;
    case "textarea":
      if (value.length > MAX_ANSWER_LENGTH) throw fieldError(field, `Keep it under ${MAX_ANSWER_LENGTH} characters`);
      return value;
    default:
      if (value.length > 1000) throw fieldError(field, "Keep it under 1000 characters");
      return value;
  }
}

/**
 * A Fill Form submitted: `values` by field id (absent: blank; a checkbox "true"/"on" or blank).
 * Every field is validated first (required, number, date, choice); the first problem is a 400
 * naming the field (`field_<id>`) and nothing is stored. Then one answer per field and the task completes.
 */
export async function submitTaskForm({ viewer, taskId, values }: { viewer: Viewer; taskId: string; values: Record<string, string | undefined> }) {
  if (viewer.kind !== "user") throw forbidden("Only a person can fill in a form");
  return withChange(async (tx) => {
    const task = await lockTaskToComplete(tx, viewer, taskId, "FillForm");
    const fields = await tx.taskFormField.findMany({ where: { taskId }, orderBy: { position: "asc" } });
    if (fields.length === 0) throw invalidRequest("taskId: This form has no fields yet; ask the firm to add them");
    const known = new Set(fields.map((f) => f.id));
    const unknown = Object.keys(values).find((id) => !known.has(id));
    if (unknown) throw invalidRequest(`values: ${unknown} is not a field of this form`);
    const answers = fields.map((f) => ({ taskId, fieldId: f.id, userId: viewer.userId, value: normalizeFieldValue(f, values[f.id]) }));
    await tx.taskAnswer.deleteMany({ where: { taskId, userId: viewer.userId } });
    await tx.taskAnswer.createMany({ data: answers });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId: task.portalId,
      actor: actorOf(viewer),
      action: "task.form_submitted",
      targetType: "task",
      targetId: taskId,
      metadata: { fields: fields.length },
    });
    await recordClientActivity(tx, viewer, { portalId: task.portalId, kind: "form", title: task.title, taskId });
    return markTaskDone(tx, { orgId: viewer.orgId, taskId, actor: actorOf(viewer) });
  });
}

/** A General task marked done by the client (members complete any task with completeTask). */
export async function markGeneralTaskDone({ viewer, taskId }: { viewer: Viewer; taskId: string }) {
  return withChange(async (tx) => {
    const task = await lockTaskToComplete(tx, viewer, taskId, "General");
    await recordClientActivity(tx, viewer, { portalId: task.portalId, kind: "done", title: task.title, taskId });
    return markTaskDone(tx, { orgId: viewer.orgId, taskId, actor: actorOf(viewer) });
  });
}
