import { z } from "zod";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db } from "@/lib/db";
import { conflict, invalidRequest } from "@/lib/errors";
import { lockTaskFor, touchPortal } from "./task-changes";

// The fields of a Fill Form task, stored with the task (TaskFormField). Kinds as stored:
// text, textarea (long text), number, date, select (single choice, with options), checkbox (yes/no).

export const FORM_FIELD_KINDS = ["text", "textarea", "number", "date", "select", "checkbox"] as const;
const MAX_FORM_FIELDS = 100;

/** One field of a Fill Form task as a request gives it (the web's form builder, the API's `form_fields`). */
const FormFieldSchema = z
  .strictObject({
    label: z.string().trim().min(1, "Must not be empty").max(500),
    kind: z.enum(FORM_FIELD_KINDS),
    required: z.boolean().default(false),
    options: z.array(z.string().trim().min(1, "Must not be empty").max(200)).max(100).default([]),
  })
  .superRefine((f, ctx) => {
    if (f.kind === "select" && f.options.length < 2) ctx.addIssue({ code: "custom", path: ["options"], message: "A single choice needs at least 2 options" });
    if (f.kind !== "select" && f.options.length > 0) ctx.addIssue({ code: "custom", path: ["options"], message: "Only a single choice has options" });
    if (new Set(f.options).size !== f.options.length) ctx.addIssue({ code: "custom", path: ["options"], message: "Options must differ" });
  })
  .meta({ id: "FormField", description: "One field: `label`, `kind`, `required` (default false), `options` (a `select` needs at least 2)" });

export type FormFieldInput = z.input<typeof FormFieldSchema>;

export const FormFieldsSchema = z.array(FormFieldSchema).max(MAX_FORM_FIELDS, `At most ${MAX_FORM_FIELDS} fields`);

/**
 * The fields as stored (trimmed, defaults filled), or a 400 naming the first problem
 * (`fields.2.options: ...`, or under another `name`: the API's `form_fields.2.options`): for a
 * caller that checks them before creating the task.
 */
export function checkFormFields(fields: unknown, name = "fields") {
  const parsed = FormFieldsSchema.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw invalidRequest(`${[name, ...issue.path].join(".")}: ${issue.message}`);
  }
  return parsed.data;
}

/**
 * Replaces the fields of a Fill Form task, in the order given (members and admins). Refused once
 * the task has answers (they belong to the fields as they were). The first problem is a 400
 * naming the field (`fields.2.options: ...`).
 */
export async function setTaskFormFields({ viewer, taskId, fields }: { viewer: Viewer; taskId: string; fields: FormFieldInput[] }) {
  const checked = checkFormFields(fields);
  const { orgId } = viewer;
  return db.$transaction(async (tx) => {
    const task = await lockTaskFor(tx, viewer, taskId, "manageTasks");
    if (task.actionType !== "FillForm") throw invalidRequest("taskId: Only a Fill Form task has form fields");
    if ((await tx.taskAnswer.count({ where: { taskId } })) > 0) throw conflict("The form has answers; its fields can no longer change");
    await tx.taskFormField.deleteMany({ where: { taskId } });
    await tx.taskFormField.createMany({ data: checked.map((f, position) => ({ taskId, position, ...f })) });
    await touchPortal(tx, { orgId, portalId: task.portalId });
    await recordAudit(tx, {
      orgId,
      portalId: task.portalId,
      actor: actorOf(viewer),
      action: "task.form_changed",
      targetType: "task",
      targetId: taskId,
      metadata: { fields: checked.length },
    });
    return tx.taskFormField.findMany({ where: { taskId }, orderBy: { position: "asc" } });
  });
}
