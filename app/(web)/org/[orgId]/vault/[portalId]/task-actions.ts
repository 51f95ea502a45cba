"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { PortalActionState } from "@/components/portal-workspace/state";
import { taskActionTypes } from "@/lib/events/types";
import { completeTask } from "@/lib/tasks/complete-task";
import { createTask } from "@/lib/tasks/create-task";
import { deleteTask } from "@/lib/tasks/delete-task";
import { reviewTask } from "@/lib/tasks/review-task";
import { checkFormFields, setTaskFormFields } from "@/lib/tasks/form-fields";
import { SignaturePlacementSchema, setSignDocument } from "@/lib/tasks/sign-document-task";
import { updateTask } from "@/lib/tasks/update-task";
import { jsonField } from "@/lib/web/json-field";
import { orgAction } from "@/lib/web/org-action";

// The tasks tab: the same domain functions as POST/PATCH /tasks and POST /tasks/{id}/complete,
// so the same audit rows and events (task.created, task.completed, task.reminders_changed).

const member = { minRole: "member", returnTo: (orgId: string) => `/org/${orgId}` } as const;
const refresh = (orgId: string, portalId: string) => revalidatePath(`/org/${orgId}/vault/${portalId}`, "layout");

/** "" (an empty date field) is no due date. */
const optionalDate = z
  .string()
  .optional()
  .transform((s) => (s?.trim() ? s.trim() : undefined));
const checked = z
  .string()
  .optional()
  .transform((v) => v === "on" || v === "true");

const TASK_FIELDS = ["title", "description", "due_date", "send_reminder", "assignees", "fields", "document_file_id", "placement", "signers"] as const;

export const createTaskAction = orgAction(
  {
    ...member,
    fields: TASK_FIELDS,
    input: z.object({
      portalId: z.string(),
      title: z.string(),
      description: z.string().default(""),
      action_type: z.enum(taskActionTypes),
      due_date: optionalDate,
      send_reminder: checked,
      assignees: z.array(z.string()).default([]),
      fields: jsonField.optional(),
      document_file_id: z.string().optional(),
      placement: jsonField.optional(),
      signers: jsonField.optional(),
      signing_order: z.enum(["sequential", "parallel"]).default("sequential"),
    }),
  },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    const isForm = input.action_type === "Fill Form";
    const isSign = input.action_type === "Sign Document";
    // Checked before the task exists, so a bad field or placement creates nothing.
    const formFields = isForm ? checkFormFields(input.fields ?? []) : [];
    const placement = isSign ? SignaturePlacementSchema.safeParse(input.placement ?? { signaturePage: true }) : null;
    if (placement && !placement.success) return { fieldErrors: { placement: placement.error.issues[0]!.message } };
    if (isSign && !input.document_file_id) return { fieldErrors: { document_file_id: "Choose the PDF to sign, or upload it here" } };
    const signers = isSign ? z.array(z.string()).safeParse(input.signers ?? []) : null;
    if (signers && !signers.success) return { fieldErrors: { signers: "Choose the signers again" } };
    // A Sign Document's document and signers are set in the creation's own transaction.
    const sign =
      isSign && placement?.success && signers?.success
        ? {
            document_file_id: input.document_file_id,
            signature_placement: placement.data,
            ...(signers.data.length > 0 ? { signers: signers.data, signing_order: input.signing_order } : {}),
          }
        : {};
    const { taskId } = await createTask({
      viewer,
      portalId: input.portalId,
      title: input.title,
      description: input.description,
      action_type: input.action_type,
      due_date: input.due_date,
      send_reminder: input.send_reminder,
      assigned_guest_ids: input.assignees.filter((a) => a.startsWith("guest:")).map((a) => a.slice(6)),
      assigned_member_ids: input.assignees.filter((a) => a.startsWith("member:")).map((a) => a.slice(7)),
      ...sign,
    });
    if (isForm) await setTaskFormFields({ viewer, taskId, fields: formFields });
    refresh(orgId, input.portalId);
    return { done: Date.now(), message: `Task "${input.title.trim()}" created` };
  },
);

const byTask = z.object({ portalId: z.string(), taskId: z.string() });

export const updateTaskAction = orgAction(
  {
    ...member,
    fields: TASK_FIELDS,
    input: byTask.extend({ title: z.string(), description: z.string().default(""), due_date: optionalDate, send_reminder: checked }),
  },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    await updateTask({
      viewer,
      taskId: input.taskId,
      title: input.title,
      description: input.description,
      due_date: input.due_date ?? null,
      send_reminder: input.send_reminder,
    });
    refresh(orgId, input.portalId);
    return { done: Date.now(), message: "Task saved" };
  },
);

/** Complete (POST /tasks/{id}/complete's function) or reopen (PATCH status). */
export const setTaskStatusAction = orgAction(
  { ...member, input: byTask.extend({ status: z.enum(["done", "open"]) }) },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    if (input.status === "done") await completeTask({ viewer, taskId: input.taskId });
    else await updateTask({ viewer, taskId: input.taskId, status: "open" });
    refresh(orgId, input.portalId);
    return { done: Date.now(), message: input.status === "done" ? "Task completed" : "Task reopened" };
  },
);

export const deleteTaskAction = orgAction({ ...member, input: byTask }, async ({ orgId, viewer }, input): Promise<PortalActionState> => {
  await deleteTask({ viewer, taskId: input.taskId });
  refresh(orgId, input.portalId);
  return { done: Date.now(), message: "Task deleted" };
});

export const setFormFieldsAction = orgAction(
  { ...member, fields: ["fields"], input: byTask.extend({ fields: jsonField }) },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    await setTaskFormFields({ viewer, taskId: input.taskId, fields: checkFormFields(input.fields) });
    refresh(orgId, input.portalId);
    return { done: Date.now(), message: "Form saved" };
  },
);

export const setDocumentAction = orgAction(
  {
    ...member,
    fields: ["document_file_id", "placement"],
    input: byTask.extend({ document_file_id: z.string().min(1, "Choose the PDF to sign"), placement: jsonField }),
  },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    const placement = SignaturePlacementSchema.safeParse(input.placement);
    if (!placement.success) return { fieldErrors: { placement: placement.error.issues[0]!.message } };
    await setSignDocument({ viewer, taskId: input.taskId, fileId: input.document_file_id, placement: placement.data });
    refresh(orgId, input.portalId);
    return { done: Date.now(), message: "Document saved" };
  },
);

/** Accept a completed request, or send it back with a reason (lib/tasks/review-task.ts). */
export const reviewTaskAction = orgAction(
  {
    ...member,
    fields: ["reason"],
    input: byTask.extend({ decision: z.enum(["accept", "return"]), reason: z.string().max(2000, "Keep it under 2000 characters").default("") }),
  },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    if (input.decision === "accept") {
      await reviewTask({ viewer, taskId: input.taskId, decision: "accept" });
      refresh(orgId, input.portalId);
      return { done: Date.now(), message: "Accepted. The request stays done; nothing is sent to the client." };
    }
    const { emailed } = await reviewTask({ viewer, taskId: input.taskId, decision: "return", reason: input.reason });
    refresh(orgId, input.portalId);
    const told =
      emailed > 0
        ? `${emailed === 1 ? "The client was" : `${emailed} clients were`} emailed your reason.`
        : "No client gets email about it (none assigned, or they turned it off): tell them yourself.";
    return { done: Date.now(), message: `Sent back: the request is open again. ${told}` };
  },
);
