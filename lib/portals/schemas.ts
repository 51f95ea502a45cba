import { z } from "zod";
import { pageQuery } from "@/lib/pagination";
import { dateTime, pathId, queryBoolean } from "@/lib/shared-schemas";
import { ExternalSystemIdsPatchSchema, MAX_SYSTEM_LENGTH, MAX_VALUE_LENGTH } from "@/lib/external-ids/schemas";
import { isUuid } from "@/lib/ids";
import { displayNameProblem } from "@/lib/text";

// Portal requests and the Portal record (spec sections 2 and 4, D9, D13).

import { MAX_NAME_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from "./limits";

const portalNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(MAX_NAME_LENGTH)
  .superRefine((name, ctx) => {
    const problem = displayNameProblem(name);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .meta({ description: "Trimmed, 1-200 characters; no control, invisible or bidirectional formatting characters" });

/** Each tag trimmed, 1-100 characters; duplicates dropped (first occurrence kept), at most 50. */
const portalTagsSchema = z
  .array(z.string().trim().min(1).max(MAX_TAG_LENGTH))
  .max(MAX_TAGS)
  .transform((tags) => [...new Set(tags)])
  .meta({ description: "At most 50 tags, each trimmed, 1-100 characters; duplicates are dropped" });

const uuidField = (description: string) => z.string().refine(isUuid, "Must be a uuid").meta({ format: "uuid", description });

export const PortalParamsSchema = z.object({ portalId: pathId("Portal") });

export const CreatePortalBodySchema = z.object({
  name: portalNameSchema,
  tags: portalTagsSchema.optional(),
  isTemplate: z.boolean().optional().meta({ description: "Create a template (listed with templatesOnly=true)" }),
  templateId: uuidField("A template of this organization to copy: folder tree, tags (merged), workflow state. Needs a business or enterprise plan").optional(),
});
export type CreatePortalBody = z.input<typeof CreatePortalBodySchema>;

export const UpdatePortalBodySchema = z
  .object({
    name: portalNameSchema.optional(),
    tags: portalTagsSchema.optional(),
    workflowStateId: z.string().optional().meta({ description: "With workflowStateName: one pair from GET /api/v1/workflow-states" }),
    workflowStateName: z.string().optional().meta({ description: "With workflowStateId" }),
    archived: z.boolean().optional(),
    externalSystemIds: ExternalSystemIdsPatchSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.workflowStateId === undefined) !== (body.workflowStateName === undefined)) {
      const missing = body.workflowStateId === undefined ? "workflowStateId" : "workflowStateName";
      ctx.addIssue({ code: "custom", path: [missing], message: "Required together with the other workflow field" });
    }
  });
export type UpdatePortalBody = z.input<typeof UpdatePortalBodySchema>;

export const ListPortalsQuerySchema = pageQuery
  .extend({
    templatesOnly: queryBoolean.default(false).meta({ description: "true: list templates instead of portals" }),
    externalSystem: z.string().trim().min(1).max(MAX_SYSTEM_LENGTH).optional().meta({ description: "With externalId: external system name, case-insensitive" }),
    externalId: z.string().min(1).max(MAX_VALUE_LENGTH).optional().meta({ description: "With externalSystem: the id, matched exactly" }),
  })
  .superRefine((q, ctx) => {
    if ((q.externalSystem === undefined) !== (q.externalId === undefined)) {
      const missing = q.externalSystem === undefined ? "externalSystem" : "externalId";
      ctx.addIssue({ code: "custom", path: [missing], message: "Required together with the other external parameter" });
    }
  });

const partnerLinkStatuses = ["verifying", "linked", "not_found", "credential_rejected", "error", "unlinked"] as const;

const PartnerLinkSchema = z
  .object({
    status: z.enum(partnerLinkStatuses),
    tenant_id: z.string().optional().meta({ description: "Only when linked" }),
    customer_id: z.string().meta({ description: "The 6-digit partner customer id" }),
    display_name: z.string().optional().meta({ description: "Customer name; only when linked" }),
    verified_at: dateTime.optional().meta({ description: "Last successful verification; absent when never verified" }),
    error: z.string().optional().meta({ description: "Reason; present when status is not linked" }),
  })
  .meta({ id: "PartnerLink", description: "The portal's link to the partner integration; written by the service, read-only" });

export const PortalSchema = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    name: z.string(),
    org_id: z.string().meta({ format: "uuid" }),
    tags: z.array(z.string()),
    workflowStateId: z.string().nullable().meta({ description: "null when the portal has no workflow state" }),
    workflowStateName: z.string().nullable(),
    archived: z.boolean(),
    externalSystemIds: z.record(z.string(), z.string()).meta({ description: "One id per external system, keys spelled as last set" }),
    partner_link: PartnerLinkSchema.nullable().meta({
      description: "null unless the organization has the partner integration connected and the portal has or had a partner id",
    }),
    created_at: dateTime,
    created_by: z.string().nullable().meta({ description: "User id of the creator" }),
    open_task_count: z.int().nonnegative(),
    done_task_count: z.int().nonnegative(),
    last_activity_at: dateTime.nullable().meta({ description: "Latest upload, task change or guest action" }),
    is_template: z.boolean(),
    web_url: z.string().meta({ format: "uri", description: "The portal in the web application" }),
  })
  .meta({ id: "Portal" });

export type PortalResponse = z.input<typeof PortalSchema>;
