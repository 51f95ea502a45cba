import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route";
import { POST as completeUpload } from "@/app/api/v1/portals/[portalId]/files/complete/route";
import { GET as listFiles, POST as uploadFile } from "@/app/api/v1/portals/[portalId]/files/route";
import { POST as inviteGuests } from "@/app/api/v1/portals/[portalId]/guests/route";
import { GET as getPortal, PATCH as updatePortal } from "@/app/api/v1/portals/[portalId]/route";
import { GET as listTasks, POST as createTask } from "@/app/api/v1/portals/[portalId]/tasks/route";
import { POST as setPortalWorkflowState } from "@/app/api/v1/portals/[portalId]/workflow/route";
import { GET as listPortals, POST as createPortal } from "@/app/api/v1/portals/route";
import { POST as completeTask } from "@/app/api/v1/tasks/[taskId]/complete/route";
import { PATCH as updateTask } from "@/app/api/v1/tasks/[taskId]/route";
import { POST as redeliverWebhookDelivery } from "@/app/api/v1/webhooks/[webhookId]/deliveries/[deliveryId]/redeliver/route";
import { GET as listWebhookDeliveries } from "@/app/api/v1/webhooks/[webhookId]/deliveries/route";
import { DELETE as deleteWebhook, PATCH as updateWebhook } from "@/app/api/v1/webhooks/[webhookId]/route";
import { POST as testWebhook } from "@/app/api/v1/webhooks/[webhookId]/test/route";
import { GET as listWebhooks, POST as createWebhook } from "@/app/api/v1/webhooks/route";
import { GET as listWorkflowStates } from "@/app/api/v1/workflow-states/route";
import type { RouteHandler } from "@/lib/api/route";
import type { CallOptions } from "@/app/api/v1/test-support/call-route";
import type { Attacker, Victim } from "@/app/test-support/cross-org/fixtures";

// The cross-organization sweep, as one table: every way in, called by the attacker (another
// organization, a token of every scope) on the victim's things. sweep.int.test.ts fails when an
// API operation has no row. Web pages, server actions, download routes and guest routes get rows
// of their own kinds here (a `kind` with its own caller in the test), not a second table.

/**
 * What the attacker must get:
 * - `not_found`: 404 `not_found` (D4: another organization's id names nothing);
 * - `as_unknown`: refused (4xx) with exactly the answer the same request gets with unknown ids in
 *   place of the victim's: for the victim's ids inside a body or under the attacker's own
 *   resources, which the API refuses as invalid input without saying whether they exist;
 * - `own_only`: whatever the answer, nothing of the victim in it (lists, /me, creating in its own
 *   organization).
 * Always: nothing of the victim's in the answer, and the victim's rows exactly as they were.
 */
export type Expectation = "not_found" | "as_unknown" | "own_only";

export interface ApiRow {
  kind: "api";
  /** The operation this row covers (lib/api/openapi/operations.ts). */
  operationId: string;
  /** What is tried, for the test's name. */
  attempt: string;
  handler: RouteHandler;
  /** The request without its token (the attacker's is added). */
  request: (victim: Victim, attacker: Attacker) => Omit<CallOptions, "token">;
  expect: Expectation;
}

export type SweepRow = ApiRow;

const api = (operationId: string, attempt: string, handler: RouteHandler, expect: Expectation, request: ApiRow["request"]): ApiRow => ({
  kind: "api",
  operationId,
  attempt,
  handler,
  request,
  expect,
});

export const SWEEP: readonly SweepRow[] = [
  api("getMe", "who am I", getMe, "own_only", () => ({ path: "/api/v1/me" })),
  api("getOpenApiDocument", "the document", getOpenApi, "own_only", () => ({ path: "/api/v1/openapi.json" })),
  api("listWorkflowStates", "list", listWorkflowStates, "own_only", () => ({ path: "/api/v1/workflow-states" })),
  api("listPortals", "list", listPortals, "own_only", () => ({ path: "/api/v1/portals" })),
  api("listPortals", "look up the victim's external id", listPortals, "own_only", (v) => ({
    path: `/api/v1/portals?externalSystem=${v.externalId.system}&externalId=${v.externalId.value}`,
  })),
  api("listPortals", "templates", listPortals, "own_only", () => ({ path: "/api/v1/portals?templatesOnly=true" })),
  api("createPortal", "from the victim's template", createPortal, "as_unknown", (v) => ({
    path: "/api/v1/portals",
    body: { name: "Stolen", templateId: v.template.id },
  })),
  api("getPortal", "the victim's portal", getPortal, "not_found", (v) => ({ path: `/api/v1/portals/${v.portal.id}`, params: { portalId: v.portal.id } })),
  api("updatePortal", "rename the victim's portal", updatePortal, "not_found", (v) => ({
    method: "PATCH",
    path: `/api/v1/portals/${v.portal.id}`,
    params: { portalId: v.portal.id },
    body: { name: "Renamed by another organization", archived: true },
  })),
  api("updatePortal", "own portal to the victim's workflow state", updatePortal, "as_unknown", (v, a) => ({
    method: "PATCH",
    path: `/api/v1/portals/${a.portal.id}`,
    params: { portalId: a.portal.id },
    body: { workflowStateId: v.states[1]!.id, workflowStateName: v.states[1]!.name },
  })),
  api("setPortalWorkflowState", "the victim's portal", setPortalWorkflowState, "not_found", (v) => ({
    path: `/api/v1/portals/${v.portal.id}/workflow`,
    params: { portalId: v.portal.id },
    body: { workflowStateId: v.states[1]!.id, workflowStateName: v.states[1]!.name },
  })),
  api("setPortalWorkflowState", "own portal to the victim's state", setPortalWorkflowState, "as_unknown", (v, a) => ({
    path: `/api/v1/portals/${a.portal.id}/workflow`,
    params: { portalId: a.portal.id },
    body: { workflowStateId: v.states[1]!.id, workflowStateName: v.states[1]!.name },
  })),
  api("listFiles", "the victim's portal", listFiles, "not_found", (v) => ({ path: `/api/v1/portals/${v.portal.id}/files`, params: { portalId: v.portal.id } })),
  api("uploadFile", "into the victim's portal", uploadFile, "not_found", (v) => ({
    path: `/api/v1/portals/${v.portal.id}/files`,
    params: { portalId: v.portal.id },
    body: { filename: "planted.pdf", size: 4 },
  })),
  api("uploadFile", "into the victim's folder from its own portal", uploadFile, "as_unknown", (v, a) => ({
    path: `/api/v1/portals/${a.portal.id}/files`,
    params: { portalId: a.portal.id },
    body: { filename: "planted.pdf", size: 4, parent_folder_file_id: v.folder.id },
  })),
  api("uploadFile", "linked to the victim's task from its own portal", uploadFile, "as_unknown", (v, a) => ({
    path: `/api/v1/portals/${a.portal.id}/files`,
    params: { portalId: a.portal.id },
    body: { filename: "planted.pdf", size: 4, task_id: v.task.id },
  })),
  api("completeUpload", "the victim's pending upload", completeUpload, "not_found", (v) => ({
    path: `/api/v1/portals/${v.portal.id}/files/complete`,
    params: { portalId: v.portal.id },
    body: { file_id: v.pending.id, filename: "victim.pdf" },
  })),
  api("completeUpload", "the victim's pending upload through its own portal", completeUpload, "as_unknown", (v, a) => ({
    path: `/api/v1/portals/${a.portal.id}/files/complete`,
    params: { portalId: a.portal.id },
    body: { file_id: v.pending.id, filename: "victim.pdf" },
  })),
  api("inviteGuests", "to the victim's portal", inviteGuests, "not_found", (v) => ({
    path: `/api/v1/portals/${v.portal.id}/guests`,
    params: { portalId: v.portal.id },
    body: { email: "intruder@example.com", name: "Intruder" },
  })),
  api("listTasks", "the victim's portal", listTasks, "not_found", (v) => ({ path: `/api/v1/portals/${v.portal.id}/tasks`, params: { portalId: v.portal.id } })),
  api("createTask", "in the victim's portal", createTask, "not_found", (v) => ({
    path: `/api/v1/portals/${v.portal.id}/tasks`,
    params: { portalId: v.portal.id },
    body: { title: "Planted task" },
  })),
  api("createTask", "assigned to the victim's member and guest from its own portal", createTask, "as_unknown", (v, a) => ({
    path: `/api/v1/portals/${a.portal.id}/tasks`,
    params: { portalId: a.portal.id },
    body: { title: "Reach across", assigned_member_ids: [v.user.id], assigned_guest_ids: [v.guest.id] },
  })),
  api("updateTask", "the victim's task", updateTask, "not_found", (v) => ({
    method: "PATCH",
    path: `/api/v1/tasks/${v.task.id}`,
    params: { taskId: v.task.id },
    body: { title: "Changed by another organization" },
  })),
  api("completeTask", "the victim's task", completeTask, "not_found", (v) => ({
    path: `/api/v1/tasks/${v.task.id}/complete`,
    params: { taskId: v.task.id },
    method: "POST",
  })),
  api("listWebhooks", "list", listWebhooks, "own_only", () => ({ path: "/api/v1/webhooks" })),
  api("createWebhook", "in its own organization", createWebhook, "own_only", () => ({
    path: "/api/v1/webhooks",
    body: { url: "https://127.0.0.1:9/attacker-hook", events: ["portal.created"] },
  })),
  api("updateWebhook", "the victim's webhook", updateWebhook, "not_found", (v) => ({
    method: "PATCH",
    path: `/api/v1/webhooks/${v.webhook.id}`,
    params: { webhookId: v.webhook.id },
    body: { url: "https://127.0.0.1:9/stolen" },
  })),
  api("deleteWebhook", "the victim's webhook", deleteWebhook, "not_found", (v) => ({
    method: "DELETE",
    path: `/api/v1/webhooks/${v.webhook.id}`,
    params: { webhookId: v.webhook.id },
  })),
  api("testWebhook", "the victim's webhook", testWebhook, "not_found", (v) => ({
    method: "POST",
    path: `/api/v1/webhooks/${v.webhook.id}/test`,
    params: { webhookId: v.webhook.id },
  })),
  api("listWebhookDeliveries", "the victim's webhook", listWebhookDeliveries, "not_found", (v) => ({
    path: `/api/v1/webhooks/${v.webhook.id}/deliveries`,
    params: { webhookId: v.webhook.id },
  })),
  api("redeliverWebhookDelivery", "the victim's delivery", redeliverWebhookDelivery, "not_found", (v) => ({
    method: "POST",
    path: `/api/v1/webhooks/${v.webhook.id}/deliveries/${v.delivery.id}/redeliver`,
    params: { webhookId: v.webhook.id, deliveryId: v.delivery.id },
  })),
  api("redeliverWebhookDelivery", "the victim's delivery under its own webhook", redeliverWebhookDelivery, "as_unknown", (v, a) => ({
    method: "POST",
    path: `/api/v1/webhooks/${a.webhook.id}/deliveries/${v.delivery.id}/redeliver`,
    params: { webhookId: a.webhook.id, deliveryId: v.delivery.id },
  })),
];
