import { GET as getMe } from "@/app/api/v1/me/route";
import { GET as getOpenApi } from "@/app/api/v1/openapi.json/route";
import { POST as completeUpload } from "@/app/api/v1/portals/[portalId]/files/complete/route";
import { GET as listFiles, POST as uploadFile } from "@/app/api/v1/portals/[portalId]/files/route";
import { GET as listGuests, POST as inviteGuests } from "@/app/api/v1/portals/[portalId]/guests/route";
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
import { POST as rotateWebhookSecret } from "@/app/api/v1/webhooks/[webhookId]/rotate-secret/route";
import { GET as listWebhooks, POST as createWebhook } from "@/app/api/v1/webhooks/route";
import { GET as listWorkflowStates } from "@/app/api/v1/workflow-states/route";
import type { RouteHandler } from "@/lib/api/route";
import type { CallOptions } from "@/test/routes/call-route";
import type { Attacker, Victim } from "@/test/cross-org/fixtures";

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
type Expectation = "not_found" | "as_unknown" | "own_only";

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

/**
 * The web rows are called over HTTP against the production build (fuzz tier,
 * test/cross-org/web-sweep.server.ts) by two callers: `member`, an admin of another
 * organization, and `guest`, a guest of another portal of the victim's organization. Each row says
 * what each caller must get (a caller left out is not tried):
 * - `not_found`: a page or route answers 404; an action answers the form state of a not_found
 *   refusal (an action's HTTP status is always 200: its result is the form's state);
 * - `own_only`: the answer shows nothing of the victim's (a page that lists the caller's own);
 * - `as_unknown` (actions): the victim's ids inside the caller's own portal or organization,
 *   refused with exactly the form state the same call gets with unknown ids in their place (an
 *   invalid-input message that says nothing about whether the id exists).
 * Always: nothing of the victim's in the answer, and the victim's rows exactly as they were.
 */
export type WebCaller = "member" | "guest";
export type WebExpectation = "not_found" | "own_only" | "as_unknown";
type WebExpectations = Partial<Record<WebCaller, WebExpectation>>;

export interface PageRow {
  kind: "page";
  /** The page's route as app/ spells it without route groups: `/org/[orgId]/settings/api`. */
  route: string;
  attempt: string;
  path: (victim: Victim, attacker: Attacker) => string;
  expect: WebExpectations;
}

export interface WebRouteRow {
  kind: "route";
  /** The route handler's route (app/.../route.ts), as for pages. */
  route: string;
  method: string;
  attempt: string;
  path: (victim: Victim, attacker: Attacker) => string;
  expect: WebExpectations;
}

export interface ActionRow {
  kind: "action";
  /** The "use server" module, from the repository root, and the export called. */
  file: string;
  exportName: string;
  attempt: string;
  /** The page the action is posted to (the one whose form uses it). */
  page: (victim: Victim, attacker: Attacker) => string;
  /**
   * The arguments as the browser sends them: for orgAction the organization id it was bound to
   * (the attacker sends any), the previous state, and the form's fields.
   */
  args: (victim: Victim, attacker: Attacker) => { bound: unknown[]; fields: Record<string, string | string[]> };
  expect: WebExpectations;
}

/** A page, route or action that serves nothing of an organization by an id: why it needs no probe. */
interface PublicRow {
  kind: "public";
  /** A page or route (`/sign-in`), or an action (`app/sign-in/actions.ts#signOutAction`). */
  target: string;
  why: string;
}

type WebRow = PageRow | WebRouteRow | ActionRow | PublicRow;
export type SweepRow = ApiRow | WebRow;

const api = (operationId: string, attempt: string, handler: RouteHandler, expect: Expectation, request: ApiRow["request"]): ApiRow => ({
  kind: "api",
  operationId,
  attempt,
  handler,
  request,
  expect,
});

const both = { member: "not_found", guest: "not_found" } as const;
const memberOnly = { member: "not_found" } as const;
const page = (route: string, attempt: string, expect: WebExpectations, path: PageRow["path"]): PageRow => ({ kind: "page", route, attempt, path, expect });
const action = (file: string, exportName: string, attempt: string, expect: WebExpectations, page: ActionRow["page"], args: ActionRow["args"]): ActionRow => ({
  kind: "action",
  file,
  exportName,
  attempt,
  page,
  args,
  expect,
});
const route = (route: string, method: string, attempt: string, expect: WebExpectations, path: WebRouteRow["path"]): WebRouteRow => ({
  kind: "route",
  route,
  method,
  attempt,
  path,
  expect,
});
const open = (target: string, why: string): PublicRow => ({ kind: "public", target, why });

const API_SETTINGS = "app/(web)/org/[orgId]/settings/api/actions.ts";
const WEBHOOK_SETTINGS = "app/(web)/org/[orgId]/settings/webhooks/actions.ts";
const PARTNER_SETTINGS = "app/(web)/org/[orgId]/settings/partner/actions.ts";
const PARTNER_PUSH = "app/(web)/org/[orgId]/vault/[portalId]/partner-actions.ts";
const partnerForm = { apiUrl: "https://partner.example/api", apiKey: "a-key" };
const settings = (section: string) => (v: Victim) => `/org/${v.orgId}/settings/${section}`;
const clientForm = { name: "Stolen client", redirect_uris: "https://attacker.example/cb", allowed_scope: ["portal:read"] };
// A public address: the URL check (no private addresses on the fuzz server) passes, so the refusal is about whose webhook it is.
const webhookForm = { url: "https://93.184.215.14/stolen", events: ["portal.created"] };

const VAULT = "app/(web)/org/[orgId]/vault/[portalId]";
/** An id nothing has: under the victim's organization the attacker is refused before any lookup. */
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";
const download = (orgId: string, portalId: string, fileId: string, inline = false) =>
  `/org/${orgId}/vault/${portalId}/file/${fileId}/download${inline ? "?inline=1" : ""}`;
const folderPage = (v: Victim) => `/org/${v.orgId}/vault/${v.portal.id}/folder/main`;
const tasksPage = (v: Victim) => `/org/${v.orgId}/vault/${v.portal.id}/tasks`;

type Fields = Record<string, string | string[]>;
/**
 * The rows of one action whose form names a portal (`portalId`) and maybe a thing in it: the
 * victim's portal bound to the victim's organization (both callers) and to the attacker's own
 * (member), and `inOwn` the victim's thing inside the caller's own portal: the attacker's portal
 * in its organization (member), the guest's portal in the victim's organization (guest), each
 * expecting what `inOwn` says.
 */
function portalAction(
  file: string,
  exportName: string,
  what: string,
  page: ActionRow["page"],
  fields: (v: Victim, a: Attacker) => Fields,
  inOwn?: WebExpectations,
): ActionRow[] {
  const rows = [
    action(file, exportName, what, both, page, (v, a) => ({ bound: [v.orgId, {}], fields: { ...fields(v, a), portalId: v.portal.id } })),
    action(file, exportName, `${what} through its own organization`, memberOnly, page, (v, a) => ({
      bound: [a.orgId, {}],
      fields: { ...fields(v, a), portalId: v.portal.id },
    })),
  ];
  if (inOwn?.member)
    rows.push(
      action(file, exportName, `${what} inside its own portal`, { member: inOwn.member }, page, (v, a) => ({
        bound: [a.orgId, {}],
        fields: { ...fields(v, a), portalId: a.portal.id },
      })),
    );
  if (inOwn?.guest)
    rows.push(
      action(file, exportName, `${what} inside the guest's own portal`, { guest: inOwn.guest }, page, (v, a) => ({
        bound: [v.orgId, {}],
        fields: { ...fields(v, a), portalId: v.outsider.portal.id },
      })),
    );
  return rows;
}

function fileActions(): ActionRow[] {
  const f = `${VAULT}/file-actions.ts`;
  return [
    ...portalAction(f, "startUploadAction", "an upload into the victim's portal", folderPage, () => ({
      filename: "planted.pdf",
      contentType: "application/pdf",
      size: "4",
    })),
    ...portalAction(
      f,
      "startUploadAction",
      "an upload into the victim's folder",
      folderPage,
      (v) => ({ filename: "planted.pdf", contentType: "application/pdf", size: "4", folderId: v.folder.id }),
      { member: "as_unknown", guest: "as_unknown" },
    ),
    ...portalAction(
      f,
      "startUploadAction",
      "an upload for the victim's task",
      folderPage,
      (v) => ({ filename: "planted.pdf", contentType: "application/pdf", size: "4", taskId: v.task.id }),
      { member: "as_unknown", guest: "as_unknown" },
    ),
    ...portalAction(
      f,
      "completeUploadAction",
      "the victim's pending upload",
      folderPage,
      (v) => ({ fileId: v.pending.id, filename: "victim.pdf", size: "4" }),
      {
        member: "as_unknown",
        guest: "as_unknown",
      },
    ),
    ...portalAction(f, "createFolderAction", "a folder in the victim's folder", folderPage, (v) => ({ parentId: v.folder.id, name: "Planted" })),
    ...portalAction(f, "renameEntryAction", "the victim's file", folderPage, (v) => ({ fileId: v.file.id, name: "renamed.pdf" }), { member: "not_found" }),
    ...portalAction(f, "moveEntryAction", "the victim's file into its folder", folderPage, (v) => ({ fileId: v.file.id, parentId: v.folder.id }), {
      member: "not_found",
    }),
    ...portalAction(f, "deleteEntryAction", "the victim's file", folderPage, (v) => ({ fileId: v.file.id }), { member: "not_found" }),
    ...portalAction(
      f,
      "restoreEntryAction",
      "the victim's deleted file",
      (v) => `/org/${v.orgId}/vault/${v.portal.id}/deleted`,
      (v) => ({ fileId: v.trashed.id }),
      {
        member: "not_found",
      },
    ),
  ];
}

function portalActions(): ActionRow[] {
  const f = `${VAULT}/portal-actions.ts`;
  const settingsPage = (v: Victim) => `/org/${v.orgId}/vault/${v.portal.id}/settings`;
  return [
    ...portalAction(f, "setWorkflowStateAction", "the victim's portal's workflow state", folderPage, (v) => ({
      workflowStateId: v.states[1]!.id,
      workflowStateName: v.states[1]!.name,
    })),
    ...portalAction(
      f,
      "setWorkflowStateAction",
      "the victim's workflow state",
      folderPage,
      (v) => ({ workflowStateId: v.states[1]!.id, workflowStateName: v.states[1]!.name }),
      {
        member: "as_unknown",
      },
    ),
    ...portalAction(f, "renamePortalAction", "the victim's portal's name", settingsPage, () => ({ name: "Renamed by another firm" })),
    ...portalAction(f, "setTagsAction", "the victim's portal's tags", folderPage, () => ({ tags: ["stolen"] })),
    ...portalAction(f, "setArchivedAction", "archive the victim's portal", folderPage, () => ({ archived: "true" })),
    ...portalAction(f, "setResponsibleAction", "the victim's portal's responsible member", settingsPage, (v) => ({ responsibleMemberId: v.user.id }), {
      member: "as_unknown",
    }),
    ...portalAction(f, "deletePortalAction", "the victim's portal, permanently", settingsPage, (v) => ({ confirmName: v.portal.name })),
  ];
}

/** Bulk, recurring and template requests: each bound to the victim's organization. */
function requestActions(): ActionRow[] {
  const bulk = "app/(web)/org/[orgId]/requests/actions.ts";
  const portal = `${VAULT}/request-actions.ts`;
  const spec = JSON.stringify({ title: "Planted request", action_type: "File Request" });
  const bound = (v: Victim, fields: Fields) => ({ bound: [v.orgId, {}], fields });
  return [
    action(
      bulk,
      "createBulkRequestAction",
      "a bulk request to the victim's portals",
      both,
      (v) => `/org/${v.orgId}`,
      (v) => bound(v, { idempotencyKey: "planted", target: "selected", portal_ids: [v.portal.id], spec }),
    ),
    action(
      bulk,
      "cancelBulkRequestAction",
      "cancel a bulk request of the victim's",
      both,
      (v) => `/org/${v.orgId}/requests`,
      (v) => bound(v, { bulkRequestId: UNKNOWN_ID }),
    ),
    action(portal, "createRecurringRequestAction", "a recurring request in the victim's portal", both, tasksPage, (v) =>
      bound(v, { portalId: v.portal.id, spec, frequency: "monthly", day_of_month: "1" }),
    ),
    action(portal, "changeRecurringRequestAction", "end a recurring request of the victim's", both, tasksPage, (v) =>
      bound(v, { portalId: v.portal.id, recurringRequestId: UNKNOWN_ID, change: "end" }),
    ),
    action(portal, "addTemplateRequestAction", "a request in the victim's template", both, tasksPage, (v) =>
      bound(v, { portalId: v.portal.id, spec, frequency: "none", day_of_month: "1" }),
    ),
    action(portal, "removeTemplateRequestAction", "a request of the victim's template", both, tasksPage, (v) =>
      bound(v, { portalId: v.portal.id, templateRequestId: UNKNOWN_ID }),
    ),
  ];
}

function taskActions(): ActionRow[] {
  const f = `${VAULT}/task-actions.ts`;
  const sign = (v: Victim) => ({ document_file_id: v.file.id, placement: JSON.stringify({ signaturePage: true }) });
  return [
    ...portalAction(f, "createTaskAction", "a task in the victim's portal", tasksPage, () => ({ title: "Planted task", action_type: "General" })),
    ...portalAction(
      f,
      "createTaskAction",
      "a task assigned to the victim's member and guest",
      tasksPage,
      (v) => ({ title: "Reach across", action_type: "General", assignees: [`member:${v.user.id}`, `guest:${v.guest.id}`] }),
      { member: "as_unknown" },
    ),
    ...portalAction(
      f,
      "createTaskAction",
      "a Sign Document task on the victim's PDF",
      tasksPage,
      (v) => ({ title: "Sign it", action_type: "Sign Document", ...sign(v) }),
      {
        member: "as_unknown",
      },
    ),
    ...portalAction(
      f,
      "createTaskAction",
      "a Sign Document task naming the victim's member and guest as signers",
      tasksPage,
      (v) => ({ title: "Sign across", action_type: "Sign Document", ...sign(v), signers: JSON.stringify([v.user.id, v.guest.id]), signing_order: "parallel" }),
      { member: "as_unknown" },
    ),
    ...portalAction(f, "updateTaskAction", "the victim's task", tasksPage, (v) => ({ taskId: v.task.id, title: "Changed by another organization" }), {
      member: "not_found",
    }),
    ...portalAction(f, "setTaskStatusAction", "complete the victim's task", tasksPage, (v) => ({ taskId: v.task.id, status: "done" }), { member: "not_found" }),
    ...portalAction(f, "deleteTaskAction", "the victim's task", tasksPage, (v) => ({ taskId: v.task.id }), { member: "not_found" }),
    ...portalAction(f, "reviewTaskAction", "send the victim's task back", tasksPage, (v) => ({ taskId: v.task.id, decision: "return", reason: "Planted" }), {
      member: "not_found",
    }),
    ...portalAction(
      f,
      "setFormFieldsAction",
      "the victim's task's form",
      tasksPage,
      (v) => ({ taskId: v.task.id, fields: JSON.stringify([{ label: "Planted", kind: "text", required: false }]) }),
      { member: "not_found" },
    ),
    ...portalAction(f, "setDocumentAction", "the victim's task's document", tasksPage, (v) => ({ taskId: v.task.id, ...sign(v) }), { member: "not_found" }),
    action(f, "setDocumentAction", "the victim's PDF as its own task's document", { member: "as_unknown" }, tasksPage, (v, a) => ({
      bound: [a.orgId, {}],
      fields: { portalId: a.portal.id, taskId: a.task.id, ...sign(v) },
    })),
  ];
}

function guestActions(): ActionRow[] {
  const f = `${VAULT}/guest-actions.ts`;
  const guestsPage = (v: Victim) => `/org/${v.orgId}/vault/${v.portal.id}/guests`;
  return [
    ...portalAction(f, "inviteGuestsAction", "a guest into the victim's portal", guestsPage, () => ({ emails: "intruder@example.com", name: "Intruder" })),
    ...portalAction(f, "resendInvitationAction", "the victim's guest's invitation", guestsPage, (v) => ({ guestId: v.portalGuest.id }), {
      member: "not_found",
    }),
    ...portalAction(f, "removeGuestAction", "the victim's guest", guestsPage, (v) => ({ guestId: v.portalGuest.id }), { member: "not_found" }),
  ];
}

/** The rows of an organization-level action: bound to the victim's organization (both callers), and where the form carries an id of the victim's, that id through the attacker's own organization. */
function orgActionRows(
  file: string,
  exportName: string,
  what: string,
  page: ActionRow["page"],
  fields: (v: Victim, a: Attacker) => Fields,
  own?: WebExpectation,
): ActionRow[] {
  const rows = [action(file, exportName, what, both, page, (v, a) => ({ bound: [v.orgId, {}], fields: fields(v, a) }))];
  if (own)
    rows.push(
      action(file, exportName, `${what} through its own organization`, { member: own }, page, (v, a) => ({ bound: [a.orgId, {}], fields: fields(v, a) })),
    );
  return rows;
}

function listActions(): ActionRow[] {
  const members = "app/(web)/org/[orgId]/settings/members/actions.ts";
  const states = "app/(web)/org/[orgId]/settings/workflow-states/actions.ts";
  return [
    ...orgActionRows(
      "app/(web)/org/[orgId]/actions.ts",
      "createPortalAction",
      "a portal in the victim's organization",
      (v) => `/org/${v.orgId}`,
      () => ({ name: "Planted portal" }),
    ),
    ...orgActionRows(
      "app/(web)/org/[orgId]/actions.ts",
      "createPortalAction",
      "a portal from the victim's template",
      (v) => `/org/${v.orgId}`,
      (v) => ({ name: "Stolen", templateId: v.template.id }),
      "as_unknown",
    ),
    ...orgActionRows(
      "app/(web)/org/[orgId]/actions.ts",
      "updatePortalsAction",
      "archive the victim's portals from the list",
      (v) => `/org/${v.orgId}`,
      (v) => ({ portal_ids: [v.portal.id], kind: "archive" }),
      "as_unknown",
    ),
    ...orgActionRows("app/(web)/org/[orgId]/settings/profile/actions.ts", "profileAction", "the victim's name and colour", settings("profile"), () => ({
      name: "Renamed",
      brandColor: "#000000",
    })),
    ...orgActionRows("app/(web)/org/[orgId]/settings/profile/actions.ts", "logoAction", "removing the victim's logo", settings("profile"), () => ({
      intent: "remove",
    })),
    ...orgActionRows(
      "app/(web)/org/[orgId]/settings/profile/actions.ts",
      "defaultTimeZoneAction",
      "the victim's default time zone",
      settings("profile"),
      () => ({
        defaultTimeZone: "Pacific/Kiritimati",
      }),
    ),
    ...orgActionRows(
      "app/(web)/org/[orgId]/settings/profile/actions.ts",
      "requireTwoFactorAction",
      "the victim's two-factor rule",
      settings("profile"),
      () => ({
        required: "off",
      }),
    ),
    ...orgActionRows(
      "app/(web)/org/[orgId]/settings/guest-defaults/actions.ts",
      "guestDefaultsAction",
      "the victim's guest defaults",
      settings("guest-defaults"),
      () => ({ view: "on", upload: "on", download: "on", deleteOwnUploads: "on" }),
    ),
    ...orgActionRows(members, "inviteMemberAction", "a member into the victim's organization", settings("members"), () => ({
      email: "intruder@example.com",
      role: "admin",
    })),
    ...orgActionRows(
      members,
      "changeRoleAction",
      "the victim's admin's role",
      settings("members"),
      (v) => ({ userId: v.user.id, role: "member" }),
      "not_found",
    ),
    ...orgActionRows(members, "removeMemberAction", "the victim's admin", settings("members"), (v) => ({ userId: v.user.id }), "not_found"),
    ...orgActionRows(
      members,
      "revokeInvitationAction",
      "the victim's member invitation",
      settings("members"),
      (v) => ({ invitationId: v.memberInvitation.id }),
      "not_found",
    ),
    ...orgActionRows(states, "addStateAction", "a workflow state in the victim's organization", settings("workflow-states"), () => ({ name: "Planted" })),
    ...orgActionRows(
      states,
      "renameStateAction",
      "the victim's workflow state",
      settings("workflow-states"),
      (v) => ({ workflowStateId: v.states[0]!.id, name: "Renamed" }),
      "not_found",
    ),
    ...orgActionRows(
      states,
      "moveStateAction",
      "the victim's workflow state",
      settings("workflow-states"),
      (v) => ({ workflowStateId: v.states[0]!.id, direction: "down" }),
      "as_unknown",
    ),
    ...orgActionRows(
      states,
      "removeStateAction",
      "the victim's workflow state",
      settings("workflow-states"),
      (v) => ({ workflowStateId: v.states[1]!.id }),
      "not_found",
    ),
  ];
}

/** A portal's messages: the firm's Messages tab and the client's page post to the same actions. */
function messageActions(): ActionRow[] {
  const f = `${VAULT}/message-actions.ts`;
  const messagesPage = (v: Victim) => `/org/${v.orgId}/vault/${v.portal.id}/messages`;
  return [
    ...portalAction(f, "postMessageAction", "a message in the victim's portal", messagesPage, () => ({ body: "Planted" })),
    ...portalAction(f, "postMessageAction", "the victim's file attached to a message", messagesPage, (v) => ({ body: "Planted", fileIds: [v.file.id] }), {
      member: "as_unknown",
      guest: "as_unknown",
    }),
    ...portalAction(f, "markThreadReadAction", "the victim's thread marked read", messagesPage, () => ({ until: new Date().toISOString() })),
  ];
}

/** The firm's inbox: an item opened (marked seen), everything marked seen. */
function inboxActions(): ActionRow[] {
  const f = "app/(web)/org/[orgId]/inbox/actions.ts";
  return [
    action(
      f,
      "openInboxItemAction",
      "an item of the victim's inbox",
      both,
      (v) => `/org/${v.orgId}/inbox`,
      (v) => ({ bound: [v.orgId, {}], fields: { itemId: v.inboxItem.id } }),
    ),
    action(
      f,
      "openInboxItemAction",
      "an item of the victim's inbox through its own organization",
      memberOnly,
      (_v, a) => `/org/${a.orgId}/inbox`,
      (v, a) => ({ bound: [a.orgId, {}], fields: { itemId: v.inboxItem.id } }),
    ),
    action(
      f,
      "markAllSeenAction",
      "the victim's inbox marked seen",
      both,
      (v) => `/org/${v.orgId}/inbox`,
      (v) => ({ bound: [v.orgId, {}], fields: {} }),
    ),
  ];
}

function clientActions(): ActionRow[] {
  const f = "app/(web)/org/[orgId]/client/[portalId]/actions.ts";
  const clientPage = (v: Victim) => `/org/${v.orgId}/client/${v.portal.id}`;
  const inOwn = { member: "not_found", guest: "not_found" } as const;
  return [
    ...portalAction(f, "answerQuestionAction", "an answer to the victim's task", clientPage, (v) => ({ taskId: v.task.id, answer: "Planted" }), inOwn),
    ...portalAction(f, "markDoneAction", "the victim's task done", clientPage, (v) => ({ taskId: v.task.id }), inOwn),
    ...portalAction(f, "submitFormAction", "the victim's task's form", clientPage, (v) => ({ taskId: v.task.id, field_x: "Planted" }), inOwn),
    ...portalAction(
      f,
      "signAction",
      "the victim's task's document",
      clientPage,
      (v) => ({ taskId: v.task.id, method: "typed", typedName: "Intruder", consent: "on" }),
      inOwn,
    ),
  ];
}

export const SWEEP: readonly SweepRow[] = [
  // --- web pages ------------------------------------------------------------------------------
  page("/org/[orgId]", "the victim's portal list", { member: "not_found", guest: "own_only" }, (v) => `/org/${v.orgId}`),
  page("/org/[orgId]/[...rest]", "any other path in the victim's organization", both, (v) => `/org/${v.orgId}/portals/${v.portal.id}`),
  page("/org/[orgId]/settings/api", "the victim's API clients", both, settings("api")),
  page("/org/[orgId]/settings/connected-apps", "the victim's connected apps", both, settings("connected-apps")),
  page("/org/[orgId]/settings/webhooks", "the victim's webhooks", both, settings("webhooks")),
  page("/org/[orgId]/settings/partner", "the victim's partner integration", both, settings("partner")),
  page("/org/[orgId]/settings/webhooks/[webhookId]", "the victim's webhook deliveries", both, (v) => `/org/${v.orgId}/settings/webhooks/${v.webhook.id}`),
  page(
    "/org/[orgId]/settings/webhooks/[webhookId]",
    "the victim's webhook under its own organization",
    memberOnly,
    (v, a) => `/org/${a.orgId}/settings/webhooks/${v.webhook.id}`,
  ),
  page("/org/[orgId]/vault/[portalId]/folder/[folderId]", "the victim's portal", both, (v) => `/org/${v.orgId}/vault/${v.portal.id}/folder/main`),
  page("/org/[orgId]/vault/[portalId]/folder/[folderId]", "the victim's folder", both, (v) => `/org/${v.orgId}/vault/${v.portal.id}/folder/${v.folder.id}`),
  // A preview is asked for in the query, which the folder's layout cannot see: the page itself
  // refuses it after its loading skeleton has streamed (a 200 whose body is the not-found page).
  page(
    "/org/[orgId]/vault/[portalId]/folder/[folderId]",
    "the victim's file previewed inside its own portal",
    { member: "own_only" },
    (v, a) => `/org/${a.orgId}/vault/${a.portal.id}/folder/main?file=${v.file.id}`,
  ),
  page(
    "/org/[orgId]/vault/[portalId]/folder/[folderId]",
    "the victim's file previewed",
    both,
    (v) => `/org/${v.orgId}/vault/${v.portal.id}/folder/main?file=${v.file.id}`,
  ),
  page(
    "/org/[orgId]/vault/[portalId]/folder/[folderId]",
    "the victim's folder inside its own portal",
    memberOnly,
    (v, a) => `/org/${a.orgId}/vault/${a.portal.id}/folder/${v.folder.id}`,
  ),
  // The portal workspace's tabs: the victim's portal, and the victim's portal or task under the attacker's own organization or portal.
  ...(["deleted", "guests", "history", "messages", "settings", "tasks"] as const).flatMap((tab) => [
    page(`/org/[orgId]/vault/[portalId]/${tab}`, `the victim's portal's ${tab} tab`, both, (v) => `/org/${v.orgId}/vault/${v.portal.id}/${tab}`),
    page(
      `/org/[orgId]/vault/[portalId]/${tab}`,
      `the victim's portal's ${tab} tab under its own organization`,
      memberOnly,
      (v, a) => `/org/${a.orgId}/vault/${v.portal.id}/${tab}`,
    ),
  ]),
  page("/org/[orgId]/vault/[portalId]/tasks/[taskId]", "the victim's task", both, (v) => `/org/${v.orgId}/vault/${v.portal.id}/tasks/${v.task.id}`),
  page(
    "/org/[orgId]/vault/[portalId]/tasks/[taskId]",
    "the victim's task inside its own portal",
    memberOnly,
    (v, a) => `/org/${a.orgId}/vault/${a.portal.id}/tasks/${v.task.id}`,
  ),
  page(
    "/org/[orgId]/vault/[portalId]/tasks/[taskId]",
    "the victim's task inside the guest's own portal (sent to its own portal's client view)",
    { guest: "own_only" },
    (v) => `/org/${v.orgId}/vault/${v.outsider.portal.id}/tasks/${v.task.id}`,
  ),
  // --- the portal list, the organization's settings, the user's own account (list) -------------
  page("/org/[orgId]/settings", "the victim's settings (sends to its profile)", both, settings("")),
  page("/org/[orgId]/settings/profile", "the victim's profile", both, settings("profile")),
  page("/org/[orgId]/settings/members", "the victim's members and invitations", both, settings("members")),
  page("/org/[orgId]/settings/workflow-states", "the victim's workflow states", both, settings("workflow-states")),
  page("/org/[orgId]/settings/guest-defaults", "the victim's default guest permissions", both, settings("guest-defaults")),
  page("/account/notifications", "the caller's own email choices", { member: "own_only", guest: "own_only" }, () => "/account/notifications"),
  page("/account/sessions", "the caller's own signed-in sessions", { member: "own_only", guest: "own_only" }, () => "/account/sessions"),
  page("/account/two-factor", "the caller's own two-factor set-up", { member: "own_only", guest: "own_only" }, () => "/account/two-factor"),
  open(
    "/org/[orgId]/logo/[sha256]",
    "the organization's logo, public on purpose (email clients fetch it without a session); addressed by the image's SHA-256, nothing else is served",
  ),
  open("/join/[token]", "addressed by the member invitation's secret token (who holds it is the invitee), never by an id"),
  page("/org/[orgId]/requests", "the victim's bulk requests", both, (v) => `/org/${v.orgId}/requests`),
  page("/org/[orgId]/inbox", "the victim's inbox", both, (v) => `/org/${v.orgId}/inbox`),
  page(
    "/org/[orgId]/inbox",
    "the victim's portal as the inbox's filter under its own organization",
    memberOnly,
    (v, a) => `/org/${a.orgId}/inbox?portal=${v.portal.id}`,
  ),
  page("/org/[orgId]/requests/[bulkId]", "a bulk request under the victim's organization", both, (v) => `/org/${v.orgId}/requests/${UNKNOWN_ID}`),
  // --- the client's (guest's) pages (guest) ----------------------------------------------------
  page("/guest", "the caller's own portals across organizations", { member: "own_only", guest: "own_only" }, () => "/guest"),
  page("/org/[orgId]/client/[portalId]", "the client view of the victim's portal", both, (v) => `/org/${v.orgId}/client/${v.portal.id}`),
  page(
    "/org/[orgId]/client/[portalId]",
    "the client view of the victim's portal under its own organization",
    memberOnly,
    (v, a) => `/org/${a.orgId}/client/${v.portal.id}`,
  ),
  page("/org/[orgId]/client/[portalId]/sign/[taskId]", "signing the victim's task", both, (v) => `/org/${v.orgId}/client/${v.portal.id}/sign/${v.task.id}`),
  page(
    "/org/[orgId]/client/[portalId]/sign/[taskId]",
    "signing the victim's task inside its own portal",
    memberOnly,
    (v, a) => `/org/${a.orgId}/client/${a.portal.id}/sign/${v.task.id}`,
  ),
  page(
    "/org/[orgId]/client/[portalId]/sign/[taskId]",
    "signing the victim's task inside the guest's own portal",
    { guest: "not_found" },
    (v) => `/org/${v.orgId}/client/${v.outsider.portal.id}/sign/${v.task.id}`,
  ),
  open("/", "redirects to the signed-in user's own organization or to sign-in"),
  open("/sign-in", "the sign-in form"),
  open("/sign-in/check-email", "a static notice"),
  open("/sign-in/forgot", "the password reset request form"),
  open("/sign-in/forgot/sent", "a static notice"),
  open("/reset-password/[token]", "addressed by the reset's secret token (who holds it owns the account), never by an id"),
  open("/docs/api", "the public API reference"),
  open("/oauth/error", "shows the error in its own query"),
  open("/oauth/consent", "addressed by an OAuth client id; shows that client's public profile to the signed-in user, nothing of an organization's data"),
  open("/invite/[token]", "addressed by the invitation's secret token (who holds it is the invitee), never by an id"),
  open("/dev/inngest", "development and test servers only (the job engine's own record), not in production"),
  open("/dev/mailbox", "development and test servers only (DEV_MAILBOX), not in production"),

  // --- route handlers outside /api/v1 (the API rows above cover /api/v1) -------------------------
  open("/.well-known/jwks.json", "public signing keys"),
  open("/.well-known/oauth-authorization-server", "public OAuth metadata"),
  route("/api/auth/[...nextauth]", "GET", "the session (Auth.js: the caller's own only)", { member: "own_only", guest: "own_only" }, () => "/api/auth/session"),
  route("/org/[orgId]/vault/[portalId]/file/[fileId]/download", "GET", "the victim's file", both, (v) => download(v.orgId, v.portal.id, v.file.id)),
  route("/org/[orgId]/vault/[portalId]/file/[fileId]/download", "GET", "the victim's file inside its own portal", memberOnly, (v, a) =>
    download(a.orgId, a.portal.id, v.file.id),
  ),
  route("/org/[orgId]/vault/[portalId]/file/[fileId]/download", "GET", "the victim's file inside the guest's own portal", { guest: "not_found" }, (v) =>
    download(v.orgId, v.outsider.portal.id, v.file.id),
  ),
  route("/org/[orgId]/vault/[portalId]/file/[fileId]/download", "GET", "the victim's file as a preview", both, (v) =>
    download(v.orgId, v.portal.id, v.file.id, true),
  ),
  open("/invite/[token]/renew", "addressed by the invitation's secret token; renews only an expired invitation, to the invited address"),
  open("/pdf-worker.mjs", "the pdf.js worker script, the same static file for everyone"),
  open("/api/inngest", "the job engine's endpoint: signed requests only (INNGEST_SIGNING_KEY)"),
  open("/healthz", "process liveness"),
  open("/readyz", "dependency readiness, no data"),
  open("/oauth/authorize", "OAuth authorization: the fuzz tier and the OAuth tests cover it; it acts for the signed-in user only"),
  open("/oauth/revoke", "revokes the token it is given, which identifies its own grant"),
  open("/oauth/token", "exchanges the caller's own code or refresh token"),

  open("/.well-known/oauth-protected-resource", "public metadata of the MCP server (RFC 9728), the same for every caller"),
  open("/.well-known/oauth-protected-resource/mcp", "public metadata of the MCP server (RFC 9728), the same for every caller"),
  open("/api/dispatcher", "answers 404 to every request; loading it registers the API's route table"),
  open("/mcp", "bearer tokens only, each tool with its API operation's checks (app/mcp/mcp-oauth.int.test.ts tries another organization's ids)"),
  open("/oauth/register", "dynamic client registration: makes a public client of no organization until a member approves it"),
  // --- server actions -----------------------------------------------------------------------------
  action(API_SETTINGS, "createClientAction", "an API client in the victim's organization", both, settings("api"), (v) => ({
    bound: [v.orgId, {}],
    fields: clientForm,
  })),
  action(API_SETTINGS, "rotateSecretAction", "the victim's client's secret", both, settings("api"), (v) => ({
    bound: [v.orgId, {}],
    fields: { id: v.client.id },
  })),
  action(API_SETTINGS, "rotateSecretAction", "the victim's client through its own organization", memberOnly, settings("api"), (v, a) => ({
    bound: [a.orgId, {}],
    fields: { id: v.client.id },
  })),
  action(API_SETTINGS, "deleteClientAction", "the victim's client", both, settings("api"), (v) => ({ bound: [v.orgId, {}], fields: { id: v.client.id } })),
  action(API_SETTINGS, "deleteClientAction", "the victim's client through its own organization", memberOnly, settings("api"), (v, a) => ({
    bound: [a.orgId, {}],
    fields: { id: v.client.id },
  })),
  action(API_SETTINGS, "updateClientProfileAction", "the victim's client's profile", both, settings("api"), (v) => ({
    bound: [v.orgId, {}],
    fields: { id: v.client.id, publisherName: "Stolen", websiteUrl: "https://attacker.example", logoUrl: "" },
  })),
  action(API_SETTINGS, "updateClientProfileAction", "the victim's client's profile through its own organization", memberOnly, settings("api"), (v, a) => ({
    bound: [a.orgId, {}],
    fields: { id: v.client.id, publisherName: "Stolen", websiteUrl: "https://attacker.example", logoUrl: "" },
  })),
  action("app/(web)/org/[orgId]/settings/connected-apps/actions.ts", "revokeGrantAction", "the victim's grant", both, settings("connected-apps"), (v) => ({
    bound: [v.orgId, {}],
    fields: { id: v.grant.id },
  })),
  action(
    "app/(web)/org/[orgId]/settings/connected-apps/actions.ts",
    "revokeGrantAction",
    "the victim's grant through its own organization",
    memberOnly,
    settings("connected-apps"),
    (v, a) => ({ bound: [a.orgId, {}], fields: { id: v.grant.id } }),
  ),
  action(WEBHOOK_SETTINGS, "createWebhookAction", "a webhook in the victim's organization", both, settings("webhooks"), (v) => ({
    bound: [v.orgId, {}],
    fields: webhookForm,
  })),
  action(WEBHOOK_SETTINGS, "updateWebhookAction", "the victim's webhook", both, settings("webhooks"), (v) => ({
    bound: [v.orgId, {}],
    fields: { ...webhookForm, id: v.webhook.id, enabled: "on" },
  })),
  action(WEBHOOK_SETTINGS, "updateWebhookAction", "the victim's webhook through its own organization", memberOnly, settings("webhooks"), (v, a) => ({
    bound: [a.orgId, {}],
    fields: { ...webhookForm, id: v.webhook.id, enabled: "on" },
  })),
  action(WEBHOOK_SETTINGS, "deleteWebhookAction", "the victim's webhook", both, settings("webhooks"), (v) => ({
    bound: [v.orgId, {}],
    fields: { id: v.webhook.id },
  })),
  action(WEBHOOK_SETTINGS, "deleteWebhookAction", "the victim's webhook through its own organization", memberOnly, settings("webhooks"), (v, a) => ({
    bound: [a.orgId, {}],
    fields: { id: v.webhook.id },
  })),
  action(WEBHOOK_SETTINGS, "testWebhookAction", "the victim's webhook", both, settings("webhooks"), (v) => ({
    bound: [v.orgId, {}],
    fields: { id: v.webhook.id },
  })),
  action(WEBHOOK_SETTINGS, "testWebhookAction", "the victim's webhook through its own organization", memberOnly, settings("webhooks"), (v, a) => ({
    bound: [a.orgId, {}],
    fields: { id: v.webhook.id },
  })),
  action(WEBHOOK_SETTINGS, "redeliverAction", "the victim's delivery", both, settings("webhooks"), (v) => ({
    bound: [v.orgId, {}],
    fields: { webhook_id: v.webhook.id, delivery_id: v.delivery.id },
  })),
  action(WEBHOOK_SETTINGS, "redeliverAction", "the victim's delivery under its own webhook", memberOnly, settings("webhooks"), (v, a) => ({
    bound: [a.orgId, {}],
    fields: { webhook_id: a.webhook.id, delivery_id: v.delivery.id },
  })),
  ...requestActions(),
  // --- the portal workspace's actions ---------------------------------------------------------
  // Each on the victim's portal in the victim's organization (member: not its organization; guest:
  // not its portal), on the victim's portal bound to the attacker's own organization, and where
  // the form carries a second id, on the victim's thing inside the caller's own portal.
  ...fileActions(),
  ...portalActions(),
  ...taskActions(),
  ...guestActions(),
  ...listActions(),
  ...clientActions(),
  ...messageActions(),
  ...inboxActions(),
  action(PARTNER_SETTINGS, "testPartnerAction", "the victim's partner settings", both, settings("partner"), (v) => ({
    bound: [v.orgId, {}],
    fields: partnerForm,
  })),
  action(PARTNER_SETTINGS, "connectPartnerAction", "the victim's partner connection", both, settings("partner"), (v) => ({
    bound: [v.orgId, {}],
    fields: partnerForm,
  })),
  action(PARTNER_SETTINGS, "disconnectPartnerAction", "the victim's partner connection", both, settings("partner"), (v) => ({
    bound: [v.orgId, {}],
    fields: {},
  })),
  action(
    PARTNER_PUSH,
    "resendPartnerPushAction",
    "a push of the victim's entry",
    both,
    (v) => `/org/${v.orgId}/vault/${v.portal.id}/folder/main`,
    (v) => ({
      bound: [v.orgId, {}],
      fields: { portalId: v.portal.id, fileId: v.folder.id },
    }),
  ),
  action(
    PARTNER_PUSH,
    "resendPartnerPushAction",
    "a push of the victim's entry through its own organization",
    memberOnly,
    (v) => `/org/${v.orgId}/vault/${v.portal.id}/folder/main`,
    (v, a) => ({ bound: [a.orgId, {}], fields: { portalId: v.portal.id, fileId: v.folder.id } }),
  ),
  action(PARTNER_PUSH, "resendPartnerPushAction", "a push of the victim's file inside its own portal", memberOnly, folderPage, (v, a) => ({
    bound: [a.orgId, {}],
    fields: { portalId: a.portal.id, fileId: v.file.id },
  })),
  action(
    PARTNER_PUSH,
    "setPartnerIdAction",
    "the victim's portal's partner id",
    both,
    (v) => `/org/${v.orgId}/vault/${v.portal.id}/folder/main`,
    (v) => ({
      bound: [v.orgId, {}],
      fields: { portalId: v.portal.id, partnerId: "123456" },
    }),
  ),
  action(
    PARTNER_PUSH,
    "setPartnerIdAction",
    "the victim's portal's partner id through its own organization",
    memberOnly,
    (v) => `/org/${v.orgId}/vault/${v.portal.id}/folder/main`,
    (v, a) => ({ bound: [a.orgId, {}], fields: { portalId: v.portal.id, partnerId: "123456" } }),
  ),
  open("app/invite/[token]/actions.ts#createAccountAndAccept", "addressed by the invitation's secret token, never by an id"),
  open("app/invite/[token]/actions.ts#acceptAsSignedIn", "addressed by the invitation's secret token, never by an id"),
  open("app/invite/[token]/actions.ts#signOutForInvitation", "signs the caller out"),
  open("app/oauth/consent/actions.ts#consentAction", "the signed-in user's own consent to a client; the authorization request is checked again"),
  open("app/sign-in/actions.ts#signInWithPassword", "signing in"),
  open("app/sign-in/forgot/actions.ts#askForPasswordReset", "mails a reset link to the address typed, the same answer whether it has an account or not"),
  open("app/reset-password/[token]/actions.ts#setNewPassword", "addressed by the reset's secret token, never by an id"),
  open("app/join/[token]/actions.ts#createAccountAndJoin", "addressed by the member invitation's secret token, never by an id"),
  open("app/join/[token]/actions.ts#joinAsSignedIn", "addressed by the member invitation's secret token, never by an id"),
  open("app/join/[token]/actions.ts#signOutForJoin", "signs the caller out"),
  open("app/(web)/account/notifications/actions.ts#notificationPreferencesAction", "the signed-in user's own email choices; no id in the form"),
  open("app/(web)/account/notifications/actions.ts#timeZoneAction", "the signed-in user's own time zone; no id in the form"),
  open(
    "app/(web)/account/notifications/actions.ts#detectedTimeZoneAction",
    "the signed-in user's own time zone, kept only while none is saved; no id in the argument",
  ),
  open(
    "app/(web)/account/sessions/actions.ts#endSessionAction",
    "the signed-in user's own sessions only: another user's session id is not found (lib/auth/user-sessions.int.test.ts)",
  ),
  open("app/(web)/account/sessions/actions.ts#endOtherSessionsAction", "the signed-in user's own sessions; no id in the form"),
  open("app/(web)/account/two-factor/actions.ts#startTotpAction", "the signed-in user's own two-factor set-up; no id in the form"),
  open("app/(web)/account/two-factor/actions.ts#confirmTotpAction", "the signed-in user's own two-factor set-up; no id in the form"),
  open("app/(web)/account/two-factor/actions.ts#disableTwoFactorAction", "the signed-in user's own two-factor; no id in the form"),
  open("app/(web)/account/two-factor/actions.ts#startPasskeyAction", "the signed-in user's own passkey set-up; no id in the form"),
  open("app/(web)/account/two-factor/actions.ts#finishPasskeyAction", "the signed-in user's own passkey set-up, bound to a challenge issued to that user"),
  open(
    "app/(web)/account/two-factor/actions.ts#removePasskeyAction",
    "the signed-in user's own passkeys only: another user's passkey id is not found (lib/auth/passkeys.int.test.ts)",
  ),
  open("app/sign-in/actions.ts#startPasskeySignInAction", "a challenge for signing in; names no account"),
  open("app/sign-in/actions.ts#signInWithPasskey", "signing in"),
  open("app/sign-in/actions.ts#signInWithMagicLink", "signing in"),
  open("app/sign-in/actions.ts#signOutAction", "signs the caller out"),

  // --- API operations -------------------------------------------------------------------------

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
  api("listGuests", "the victim's portal", listGuests, "not_found", (v) => ({
    path: `/api/v1/portals/${v.portal.id}/guests`,
    params: { portalId: v.portal.id },
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
  api("updateTask", "own task reassigned to the victim's member and guest", updateTask, "as_unknown", (v, a) => ({
    method: "PATCH",
    path: `/api/v1/tasks/${a.task.id}`,
    params: { taskId: a.task.id },
    body: { assigned_member_ids: [v.user.id], assigned_guest_ids: [v.guest.id] },
  })),
  api("updateTask", "own Sign Document task given the victim's PDF", updateTask, "as_unknown", (v, a) => ({
    method: "PATCH",
    path: `/api/v1/tasks/${a.task.id}`,
    params: { taskId: a.task.id },
    body: { document_file_id: v.file.id },
  })),
  api("createTask", "a Sign Document task with the victim's PDF in its own portal", createTask, "as_unknown", (v, a) => ({
    path: `/api/v1/portals/${a.portal.id}/tasks`,
    params: { portalId: a.portal.id },
    body: { title: "Reach across", action_type: "Sign Document", document_file_id: v.file.id },
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
  api("rotateWebhookSecret", "the victim's webhook", rotateWebhookSecret, "not_found", (v) => ({
    method: "POST",
    path: `/api/v1/webhooks/${v.webhook.id}/rotate-secret`,
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
