import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { SetWorkflowStateBodySchema } from "@/lib/workflow/schemas";
import { CreatePortalBodySchema, ListPortalsQuerySchema, PortalParamsSchema, PortalSchema, UpdatePortalBodySchema } from "@/lib/portals/schemas";

// The portal operations of spec section 4, served by app/api/v1/portals/**/route.ts.

export const listPortalsOperation = defineOperation({
  method: "GET",
  path: "/api/v1/portals",
  operationId: "listPortals",
  summary: "List portals (archived ones included), or templates, or look a portal up by an external system id",
  description:
    "Active portals in creation order. `templatesOnly=true` lists templates instead. `externalSystem` and `externalId` (always together) keep the portal holding that pair: the system name matched case-insensitively, the id exactly; `[]` when none.",
  tag: "Portals",
  scope: "portal:read",
  query: ListPortalsQuerySchema,
  responses: { 200: z.array(PortalSchema) },
});

export const createPortalOperation = defineOperation({
  method: "POST",
  path: "/api/v1/portals",
  operationId: "createPortal",
  summary: "Create a portal or a template, optionally from a template",
  description:
    "From a template (`templateId`): its folder tree (every level), its tags (merged with `tags`) and its workflow state are copied; this needs a business or enterprise plan. Fires `portal.created`.",
  tag: "Portals",
  scope: "portal:write",
  body: CreatePortalBodySchema,
  responses: { 201: PortalSchema },
  errors: { 403: "insufficient_scope, api_access_disabled, or plan_required: creating from a template needs a business or enterprise plan" },
});

export const getPortalOperation = defineOperation({
  method: "GET",
  path: "/api/v1/portals/{portalId}",
  operationId: "getPortal",
  summary: "One portal with its task counters, last activity, web link and partner link",
  tag: "Portals",
  scope: "portal:read",
  params: PortalParamsSchema,
  responses: { 200: PortalSchema },
});

export const updatePortalOperation = defineOperation({
  method: "PATCH",
  path: "/api/v1/portals/{portalId}",
  operationId: "updatePortal",
  summary: "Change a portal: name, tags, archived, workflow state, external system ids",
  description:
    "Only the fields sent change. `archived: true` archives, `false` restores. `workflowStateId` and `workflowStateName` come together as one configured pair; a real change fires `portal.workflow_changed`. `externalSystemIds` is merged: sent keys are set (a key differing only by case is replaced, the request's spelling kept), null deletes, omitted keys stay; the merged map is returned. `partner_link` is read-only and ignored.",
  tag: "Portals",
  scope: "portal:write",
  params: PortalParamsSchema,
  body: UpdatePortalBodySchema,
  responses: { 200: PortalSchema },
  errors: { 409: "conflict: an externalSystemIds (system, id) pair is already assigned to another portal of the organization" },
});

export const setPortalWorkflowOperation = defineOperation({
  method: "POST",
  path: "/api/v1/portals/{portalId}/workflow",
  operationId: "setPortalWorkflowState",
  summary: "Set a portal's workflow state",
  description: "Both fields, one pair from GET /api/v1/workflow-states. Fires `portal.workflow_changed` when the state really changes. Returns the Portal.",
  tag: "Portals",
  scope: "portal:write",
  params: PortalParamsSchema,
  body: SetWorkflowStateBodySchema,
  responses: { 200: PortalSchema },
});
