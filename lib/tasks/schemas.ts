import { z } from "zod";
import { pageQuery } from "@/lib/pagination";
import { dateTime, pathId } from "@/lib/shared-schemas";
import { taskActionTypes, taskStatuses } from "@/lib/events/types";
import { FORM_FIELD_KINDS, FormFieldsSchema } from "./form-fields";
import { SignaturePlacementSchema } from "./sign-document-task";

// Task requests and the Task record (spec sections 2-4, D11, D17, D18).

export const MAX_TITLE_LENGTH = 500;
export const MAX_DESCRIPTION_LENGTH = 10_000;
const MAX_ASSIGNEES = 100;

const title = z.string().trim().min(1).max(MAX_TITLE_LENGTH).meta({ description: "Trimmed, 1-500 characters" });
const description = z.string().max(MAX_DESCRIPTION_LENGTH).meta({ description: "At most 10,000 characters" });
const dueDate = z.iso.datetime({ offset: true }).meta({ description: "ISO 8601 date-time" });
const idList = (description: string) => z.array(z.string()).max(MAX_ASSIGNEES).meta({ description });

export const PortalTasksParamsSchema = z.object({ portalId: pathId("Portal") });
export const TaskParamsSchema = z.object({ taskId: pathId("Task") });
export const ListTasksQuerySchema = pageQuery;

// Extensions of the contract (docs/api.md): what the web's task builder sets, through the same
// domain functions (form-fields.ts, sign-document.ts, resolve-assignees.ts) with the same checks.
const formFields = FormFieldsSchema.meta({
  description: "Extension, Fill Form only: the form's fields in order, at most 100 (replaces them on PATCH; refused once the form has answers)",
});
const documentFileId = z.string().meta({
  format: "uuid",
  description: "Extension, Sign Document only: a registered PDF file of the task's portal, the document to sign",
});
const signaturePlacement = SignaturePlacementSchema.meta({
  description:
    "Extension, Sign Document only: `{signaturePage: true}` (a page appended to the document; the default) or a box `{page, x, y, width, height}` in fractions of the page (0-1, from the top left)",
});

const signers = z.array(z.string()).max(20).meta({
  description:
    "Extension, Sign Document only: user ids of the signers (guests of this portal, members of the organization) in signing order, at most 20; each signs in turn, the task completes with the last signature. Absent or []: one signature completes the task",
});
const signingOrder = z.enum(["sequential", "parallel"]).meta({
  description:
    "Extension, Sign Document only, with signers: `sequential` (the default: in the order given, each asked when it is their turn) or `parallel` (any order)",
});

export const CreateTaskBodySchema = z.object({
  title,
  description: description.optional(),
  due_date: dueDate.optional(),
  action_type: z.enum(taskActionTypes).optional().meta({ description: "Default General" }),
  assigned_guest_ids: idList("User ids of guests of this portal").optional(),
  assigned_member_ids: idList("User ids of members of the organization").optional(),
  send_reminder: z.boolean().optional().meta({ description: "Default false; requires due_date" }),
  form_fields: formFields.optional(),
  document_file_id: documentFileId.optional(),
  signature_placement: signaturePlacement.optional(),
  signers: signers.optional(),
  signing_order: signingOrder.optional(),
});
export type CreateTaskBody = z.output<typeof CreateTaskBodySchema>;

export const UpdateTaskBodySchema = z.object({
  title: title.optional(),
  description: description.optional(),
  status: z.string().optional().meta({ description: "done, completed or closed (any case) finish the task; any other value reopens it" }),
  due_date: dueDate.nullable().optional().meta({ description: "null clears it (not while send_reminder is on)" }),
  send_reminder: z.boolean().optional().meta({ description: "Beyond the spec: turn reminders on (needs a due date) or off" }),
  assigned_guest_ids: idList("Extension: the guest assignees become exactly these user ids of guests of this portal ([] removes them all)").optional(),
  assigned_member_ids: idList("Extension: the member assignees become exactly these user ids of members of the organization ([] removes them all)").optional(),
  form_fields: formFields.optional(),
  document_file_id: documentFileId.optional(),
  signature_placement: signaturePlacement.optional(),
  signers: signers.optional(),
  signing_order: signingOrder.optional(),
});
export type UpdateTaskBody = z.output<typeof UpdateTaskBodySchema>;

const AssigneeSchema = z
  .object({
    user_id: z.string().meta({ format: "uuid" }),
    name: z.string().nullable(),
    email: z.string(),
    type: z.enum(["guest", "member"]),
  })
  .meta({ id: "TaskAssignee" });

export const TaskSchema = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    vault_id: z.string().meta({ format: "uuid", description: "The portal id" }),
    org_id: z.string().meta({ format: "uuid" }),
    title: z.string(),
    description: z.string(),
    action_type: z.enum(taskActionTypes),
    status: z.enum(taskStatuses),
    due_date: dateTime.nullable(),
    created_at: dateTime,
    assignees: z.array(AssigneeSchema),
    send_reminder: z.boolean(),
    updated_at: dateTime,
    completed_at: dateTime.nullable(),
    attached_file_ids: z.array(z.string().meta({ format: "uuid" })),
    document_file_id: z
      .string()
      .nullable()
      .meta({ format: "uuid", description: "Extension: a Sign Document task's document to sign; null when none is set (or another type)" }),
    signature_placement: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: "Extension: where the signature goes (see signature_placement of createTask); null when no document is set" }),
    signers: z
      .array(
        z
          .object({
            user_id: z.string().meta({ format: "uuid" }),
            name: z.string().nullable(),
            email: z.string(),
            type: z.enum(["guest", "member"]),
            signed_at: dateTime.nullable(),
          })
          .meta({ id: "TaskSigner" }),
      )
      .meta({
        description: "Extension: a Sign Document's named signers in signing order, each with when they signed; [] when one signature completes the task",
      }),
    signing_order: z
      .enum(["sequential", "parallel"])
      .nullable()
      .meta({ description: "Extension: with signers, whether they sign in order (sequential) or in any order (parallel); null without signers" }),
    form_fields: z
      .array(
        z
          .object({
            id: z.string().meta({ format: "uuid" }),
            label: z.string(),
            kind: z.enum(FORM_FIELD_KINDS),
            required: z.boolean(),
            options: z.array(z.string()),
          })
          .meta({ id: "TaskFormField" }),
      )
      .meta({ description: "Extension: a Fill Form task's fields in order; [] for other types" }),
  })
  .meta({ id: "Task" });
export type TaskJson = z.input<typeof TaskSchema>;

export const TaskCreatedSchema = z.object({ task_id: z.string().meta({ format: "uuid" }) }).meta({ id: "TaskCreated" });
export const TaskChangedSchema = z.object({ success: z.boolean(), task_id: z.string().meta({ format: "uuid" }) }).meta({ id: "TaskChanged" });
