import { z } from "zod";
import { taskActionTypes } from "@/lib/events/types";
import { SignaturePlacementSchema } from "@/lib/tasks/sign-document-task";
import { MAX_DESCRIPTION_LENGTH, MAX_TITLE_LENGTH } from "@/lib/tasks/schemas";

// A request as it is stored to be made later, once per portal or per period (bulk requests,
// recurring requests, a template's request list): what createTask is given, with the due date
// either fixed or counted in days from the moment the task is made.

const MAX_DUE_IN_DAYS = 366;
export const MAX_BULK_PORTALS = 5_000;

/** A fixed due date, or one counted from when the task is made (sending, the occurrence, the portal's creation). */
const RequestDueSchema = z.union([
  z.strictObject({ kind: z.literal("none") }),
  z.strictObject({ kind: z.literal("date"), date: z.iso.datetime({ offset: true }) }),
  z.strictObject({ kind: z.literal("relative"), days: z.int().min(0).max(MAX_DUE_IN_DAYS) }),
]);
export type RequestDue = z.infer<typeof RequestDueSchema>;

const FormFieldSpecSchema = z.strictObject({
  label: z.string(),
  kind: z.string(),
  required: z.boolean().optional(),
  options: z.array(z.string()).optional(),
});

export const RequestSpecSchema = z.strictObject({
  title: z.string().trim().min(1).max(MAX_TITLE_LENGTH),
  description: z.string().max(MAX_DESCRIPTION_LENGTH).default(""),
  action_type: z.enum(taskActionTypes).default("General"),
  due: RequestDueSchema.default({ kind: "none" }),
  send_reminder: z.boolean().default(false),
  /** Fill Form: the fields (checked as setTaskFormFields checks them). */
  form_fields: z.array(FormFieldSpecSchema).default([]),
  /** Sign Document: a PDF of any portal of the organization, copied into each portal. */
  document_file_id: z.uuid().nullable().default(null),
  placement: SignaturePlacementSchema.default({ signaturePage: true }),
});
export type RequestSpec = z.output<typeof RequestSpecSchema>;
export type RequestSpecInput = z.input<typeof RequestSpecSchema>;

export const RECURRENCE_FREQUENCIES = ["monthly", "quarterly", "yearly"] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number];

export const RecurrenceSchema = z.strictObject({
  frequency: z.enum(RECURRENCE_FREQUENCIES),
  day_of_month: z.int().min(1).max(31),
});
export type Recurrence = z.infer<typeof RecurrenceSchema>;
