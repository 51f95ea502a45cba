import { randomUUID } from "node:crypto";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { PDFDocument } from "pdf-lib";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listPortalAudit } from "@/lib/audit/list-audit";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { startInngestReceiver, type InngestReceiver } from "@/lib/events/test-support/inngest-receiver";
import { completeUpload } from "@/lib/files/complete-upload";
import { listPortalFiles } from "@/lib/files/list-files";
import { createFolder } from "@/lib/files/create-folder";
import { deleteEntry } from "@/lib/files/delete-entry";
import { getFilePreview, getFileUrl } from "@/lib/files/file-url";
import { getFolderPath, getFolderTree, getFolderView } from "@/lib/files/folder-view";
import { moveEntry } from "@/lib/files/move-entry";
import { listRecentlyDeleted } from "@/lib/files/recently-deleted";
import { renameEntry } from "@/lib/files/rename-entry";
import { restoreEntry } from "@/lib/files/restore-entry";
import { startUpload } from "@/lib/files/start-upload";
import { uploadFromUrl } from "@/lib/files/upload-from-url";
import { getGuestPortalView } from "@/lib/guests/guest-view";
import { inviteGuests } from "@/lib/guests/invite-guests";
import { listGuests } from "@/lib/guests/list-guests";
import { getInviteDefaults } from "@/lib/guests/invite-defaults";
import { listPortalGuests, removeGuest, resendInvitation } from "@/lib/guests/manage-guests";
import { getMe } from "@/lib/me/get-me";
import { connectPartner, disconnectPartner, getPartnerConnection, testPartnerCredentials } from "@/lib/partner/connection";
import { listPartnerPushStatuses, resendPartnerPush } from "@/lib/partner/push";
import { refreshPartnerLinkIfStale } from "@/lib/partner/verify-link";
import { SANDBOX_API_KEY, startPartnerSandbox, type PartnerSandbox } from "@/scripts/partner-sandbox";
import { changeMemberRole, listMembers, removeMember } from "@/lib/members/manage-members";
import { inviteMember, listMemberInvitations, revokeMemberInvitation } from "@/lib/members/member-invitations";
import { setRequireTwoFactor } from "@/lib/auth/require-two-factor";
import { removeOrgLogo, setOrgLogo } from "@/lib/organization/logo";
import { getOrgProfile, updateDefaultGuestPermissions, updateOrgProfile } from "@/lib/organization/profile";
import { setOrgDefaultTimeZone } from "@/lib/time/settings";
import { createOAuthClient } from "@/lib/oauth/clients/create-client";
import { deleteOAuthClient, listOAuthClients, rotateClientSecret } from "@/lib/oauth/clients/manage-client";
import { updateClientProfile } from "@/lib/oauth/clients/profile";
import { ALL_SCOPES, type Scope } from "@/lib/access/scopes";
import { createPortal } from "@/lib/portals/create-portal";
import { deletePortal } from "@/lib/portals/delete-portal";
import { getPortal } from "@/lib/portals/get-portal";
import { getPortalFirstSteps } from "@/lib/portals/first-steps";
import { listPortals } from "@/lib/portals/list-portals";
import { PortalSearchSchema, searchPortals } from "@/lib/portals/search-portals";
import { addPortalTags, updatePortal } from "@/lib/portals/update-portal";
import { updatePortals } from "@/lib/portals/update-portals";
import { getResponsibleChoice, setResponsibleMember } from "@/lib/portals/responsible-member";
import { getDocumentToSign, signDocument } from "@/lib/signing/sign-document";
import { getSignatureRecord } from "@/lib/signing/signature-record";
import { reviewTask } from "@/lib/tasks/review-task";
import { inboxUnreadCount, listInbox, listInboxAssignees } from "@/lib/inbox/list-inbox";
import { markAllInboxSeen, markInboxItemSeen } from "@/lib/inbox/seen";
import { postMessage } from "@/lib/messages/post-message";
import { listMessages, markThreadRead, unreadMessageCount } from "@/lib/messages/thread";
import { completeTask, completeTaskByUpload } from "@/lib/tasks/complete-task";
import { createTask } from "@/lib/tasks/create-task";
import { deleteTask } from "@/lib/tasks/delete-task";
import { setTaskFormFields } from "@/lib/tasks/form-fields";
import { setSignDocument } from "@/lib/tasks/sign-document-task";
import { getSigners, setSigners } from "@/lib/tasks/signers";
import { answerQuestion, markGeneralTaskDone, submitTaskForm } from "@/lib/tasks/task-answers";
import { getTaskDetails } from "@/lib/tasks/task-details";
import { getPortalTask, listAssigneeOptions } from "@/lib/tasks/task-panel-data";
import { listPortalTasks } from "@/lib/tasks/list-portal-tasks";
import { updateTask } from "@/lib/tasks/update-task";
import { createTestClient, createTestOrg, createTestPortal, createTestUser, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { cancelBulkRequest, getBulkRequest, listBulkRequests } from "@/lib/requests/bulk-progress";
import { createBulkRequest } from "@/lib/requests/create-bulk-request";
import { materializeDueOccurrences } from "@/lib/requests/materialize-occurrences";
import { changeRecurringRequest, createRecurringRequest, listRecurringRequests } from "@/lib/requests/recurring-requests";
import { listRequestDocuments } from "@/lib/requests/request-documents";
import { finishBulkRequest, sendBulkBatch } from "@/lib/requests/send-bulk-batch";
import { addTemplateRequest, listTemplateRequests, removeTemplateRequest } from "@/lib/requests/template-requests";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { findDelivery, getWebhook, listDeliveries } from "@/lib/webhooks/deliveries";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { redeliverWebhookDelivery } from "@/lib/webhooks/redeliver";
import { rotateWebhookSecret } from "@/lib/webhooks/rotate-secret";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/webhooks/test-support/webhook-receiver";
import { testWebhook } from "@/lib/webhooks/test-webhook";
import { updateWebhook } from "@/lib/webhooks/update-webhook";
import { listWorkflowStates } from "@/lib/workflow/list-workflow-states";
import { addWorkflowState, removeWorkflowState, renameWorkflowState, reorderWorkflowStates } from "@/lib/workflow/manage-workflow-states";
import { createSelfSignedP12 } from "@/lib/signing/certificate";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { getUserViewer, systemViewer, viewerFromApiAuth, type Viewer } from "./viewer";

/** A 1×1 PNG (the logo rows). */
const TINY_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

// The access policy, role x resource x action, for every domain entry point against the real
// database: one table (ROWS) with one row per entry point, each run by every kind of viewer.
// Allowed calls succeed (lists show the resource); refused ones fail with the error of the rule in
// lib/access/policy.ts (not_found: the viewer may not know it exists; forbidden: visible but not
// theirs to do; insufficient_scope: the token lacks the scope) and leave the organization's rows
// exactly as they were. The last test finds every exported lib/ function taking a viewer and fails
// when one has no row, so a new entry point cannot slip past the matrix.

type Outcome = "ok" | "hidden" | "not_found" | "forbidden" | "insufficient_scope";
type ViewerKey =
  | "admin"
  | "member"
  | "guest"
  | "guestNoView"
  | "guestNoUpload"
  | "guestNoDownload"
  | "guestNoDelete"
  | "guestElsewhere"
  | "otherOrg"
  | "clientWith"
  | "clientWithout"
  | "system";

interface World {
  orgId: string;
  portalId: string;
  otherPortalId: string;
  templateId: string;
  fileId: string;
  taskId: string;
  webhookId: string;
  deliveryId: string;
  clientRecordId: string;
  workflowStateId: string;
  adminId: string;
  system: Viewer;
  receiverUrl: string;
  partnerUrl: string;
}

interface Row<T = unknown> {
  /** `<path under lib without .ts>:<function>`: what the completeness check looks for. */
  entry: string;
  /** The scope the action needs through the API; null: none (not possible through the API, or /me). */
  scope: Scope | null;
  write: boolean;
  expect: Record<Exclude<ViewerKey, "clientWith" | "clientWithout">, Outcome> & Partial<Record<"clientWith" | "clientWithout", Outcome>>;
  /** Made (as the system) before the state is recorded, a fresh target per viewer. */
  prepare?: (w: World) => Promise<T>;
  run: (viewer: Viewer, w: World, target: T) => Promise<unknown>;
  /** For reads: whether the result shows the world's resource ("ok" needs it, "hidden" needs it absent). */
  sees?: (result: unknown, w: World) => boolean;
}

const row = <T>(r: Row<T>) => r as Row;

const guests = (o: Outcome) => ({ guest: o, guestNoView: o, guestNoUpload: o, guestNoDownload: o, guestNoDelete: o });
/** Inside a portal, what guests with `view` may do. */
const PORTAL_VIEW = {
  admin: "ok",
  member: "ok",
  ...guests("ok"),
  guestNoView: "forbidden",
  guestElsewhere: "not_found",
  otherOrg: "not_found",
  system: "ok",
} as const;
const PORTAL_UPLOAD = { ...PORTAL_VIEW, guestNoUpload: "forbidden" } as const;
/** Inside a portal, members' work: guests of the portal see it but may not; others do not know it. */
const PORTAL_MEMBERS = { admin: "ok", member: "ok", ...guests("forbidden"), guestElsewhere: "not_found", otherOrg: "not_found", system: "ok" } as const;
/** Organization-wide, members and admins; another organization's member acts in their own. */
const ORG_MEMBERS = { admin: "ok", member: "ok", ...guests("forbidden"), guestElsewhere: "forbidden", otherOrg: "ok", system: "ok" } as const;
const ORG_ADMINS = { ...ORG_MEMBERS, member: "forbidden" } as const;
/** An admin's thing named by id: another organization's admin does not know it. */
const ADMIN_BY_ID = { ...ORG_ADMINS, otherOrg: "not_found" } as const;
const LIST = { otherOrg: "hidden" } as const;

const ids = (result: unknown): string[] => {
  const items = Array.isArray(result) ? result : (result as { items: unknown[] }).items;
  return items.map((i) => (i as { id?: string; webhook_id?: string }).id ?? (i as { webhook_id: string }).webhook_id);
};

async function pendingUpload(w: World) {
  const ticket = await startUpload({ viewer: w.system, portalId: w.portalId, filename: "scan.txt", contentType: "text/plain" });
  const put = await fetch(ticket.uploadUrl, { method: "PUT", body: "scanned", headers: { "content-type": "text/plain" } });
  expect(put.ok).toBe(true);
  return ticket.fileId;
}

const freshTask = async (w: World, body: { action_type?: "File Request" } = {}) =>
  (await createTask({ viewer: w.system, portalId: w.portalId, title: `Task ${randomUUID()}`, ...body })).taskId;

/** A new guest of the world's portal (PortalGuest id). */
async function freshGuest(w: World) {
  const user = await db.user.create({ data: { email: `fresh-${randomUUID()}@test.example` } });
  return (await db.portalGuest.create({ data: { orgId: w.orgId, portalId: w.portalId, userId: user.id, permissions: {} } })).id;
}

/** A registered file uploaded by the same guest as the world's file (the guest with every permission). */
async function guestUpload(w: World) {
  const { uploadedById } = await db.fileEntry.findUniqueOrThrow({ where: { id: w.fileId } });
  return (await db.fileEntry.create({ data: { orgId: w.orgId, portalId: w.portalId, name: "upload.pdf", registeredAt: new Date(), uploadedById } })).id;
}

/** An inbox item of the world's portal, as a client's upload writes it (InboxItem id). */
async function inboxItem(w: World) {
  return (await db.inboxItem.create({ data: { orgId: w.orgId, portalId: w.portalId, kind: "upload", title: "scan.pdf" } })).id;
}

/** A task of the given type for the client's side (a Fill Form with one optional field). */
async function clientTask(w: World, action_type: "General" | "Question?" | "Fill Form") {
  const { taskId } = await createTask({ viewer: w.system, portalId: w.portalId, title: `Client task ${randomUUID()}`, action_type });
  if (action_type === "Fill Form") await setTaskFormFields({ viewer: w.system, taskId, fields: [{ label: "Notes", kind: "text" }] });
  return taskId;
}

/** An open Sign Document task with a one-page PDF stored in S3. */
async function signTask(w: World) {
  const doc = await PDFDocument.create();
  doc.addPage();
  const bytes = Buffer.from(await doc.save());
  const id = randomUUID();
  const storageKey = fileStorageKey(w.orgId, id);
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: bytes, ContentType: "application/pdf" }));
  await db.fileEntry.create({
    data: {
      id,
      orgId: w.orgId,
      portalId: w.portalId,
      name: "sign.pdf",
      extension: "pdf",
      contentType: "application/pdf",
      size: bytes.length,
      storageKey,
      registeredAt: new Date(),
    },
  });
  const { taskId } = await createTask({ viewer: w.system, portalId: w.portalId, title: `Sign ${randomUUID()}`, action_type: "Sign Document" });
  await setSignDocument({ viewer: w.system, taskId, fileId: id, placement: { signaturePage: true } });
  return taskId;
}

/** A bulk request of the world's organization to its portal, made as the system. */
const freshBulk = async (w: World) =>
  (await createBulkRequest({ viewer: w.system, idempotencyKey: randomUUID(), target: { portal_ids: [w.portalId] }, spec: { title: `Bulk ${randomUUID()}` } }))
    .bulkRequestId;

/** Members' work on a template: its guests are nobody's, so guests do not know it. */
const TEMPLATE_MEMBERS = { ...PORTAL_MEMBERS, ...guests("not_found") } as const;

/** A task the client completes: guests with view, members and admins; another portal's guest does not know it. */
const CLIENT_TASK = { ...PORTAL_VIEW } as const;

const ROWS: Row[] = [
  // Portals
  row({
    entry: "portals/list-portals:listPortals",
    scope: "portal:read",
    write: false,
    expect: { ...PORTAL_VIEW, guestNoView: "hidden", guestElsewhere: "hidden", ...LIST },
    run: (viewer) => listPortals({ viewer }),
    sees: (r, w) => ids(r).includes(w.portalId),
  }),
  row({
    entry: "portals/search-portals:searchPortals",
    scope: "portal:read",
    write: false,
    expect: { ...PORTAL_VIEW, guestNoView: "hidden", guestElsewhere: "hidden", ...LIST },
    run: (viewer) => searchPortals({ viewer, search: PortalSearchSchema.parse({}) }),
    sees: (r, w) => ids(r).includes(w.portalId),
  }),
  row({
    entry: "portals/get-portal:getPortal",
    scope: "portal:read",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getPortal({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "portals/first-steps:getPortalFirstSteps",
    scope: "portal:write",
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => getPortalFirstSteps({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "portals/create-portal:createPortal",
    scope: "portal:write",
    write: true,
    expect: ORG_MEMBERS,
    run: (viewer) => createPortal({ viewer, name: "New portal" }),
  }),
  row({
    entry: "portals/update-portal:updatePortal",
    scope: "portal:write",
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => updatePortal({ viewer, portalId: w.portalId, tags: [randomUUID()] }),
  }),
  row({
    entry: "portals/update-portal:addPortalTags",
    scope: "portal:write",
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => addPortalTags({ viewer, portalId: w.portalId, tags: [randomUUID()] }),
  }),
  row({
    entry: "portals/update-portals:updatePortals",
    scope: "portal:write",
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => updatePortals({ viewer, portalIds: [w.portalId], change: { kind: "addTag", tag: randomUUID() } }),
  }),
  row({
    entry: "portals/responsible-member:getResponsibleChoice",
    scope: "portal:write",
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => getResponsibleChoice({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "portals/responsible-member:setResponsibleMember",
    scope: "portal:write",
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => setResponsibleMember({ viewer, portalId: w.portalId, memberId: w.adminId }),
  }),
  row({
    entry: "portals/delete-portal:deletePortal",
    scope: null,
    write: true,
    expect: { ...ORG_ADMINS, otherOrg: "not_found" },
    prepare: async (w) => (await createTestPortal({ orgId: w.orgId, name: "Doomed" })).id,
    run: (viewer, _w, portalId) => deletePortal({ viewer, portalId, confirmName: "Doomed" }),
  }),
  // Files
  row({
    entry: "files/list-files:listPortalFiles",
    scope: "file:list",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => listPortalFiles({ viewer, portalId: w.portalId }),
    sees: (r, w) => ids(r).includes(w.fileId),
  }),
  row({
    entry: "files/start-upload:startUpload",
    scope: "file:upload",
    write: true,
    expect: PORTAL_UPLOAD,
    run: (viewer, w) => startUpload({ viewer, portalId: w.portalId, filename: "a.pdf" }),
  }),
  row({
    entry: "files/complete-upload:completeUpload",
    scope: "file:upload",
    write: true,
    expect: PORTAL_UPLOAD,
    prepare: pendingUpload,
    // An upload is completed by whoever started it: a viewer that may start one completes its own;
    // the others try the system's, and are refused by the portal check before the ticket is looked up.
    run: async (viewer, w, systemFileId) => {
      const own = await pendingUpload({ ...w, system: viewer }).catch(() => null);
      return completeUpload({ viewer, portalId: w.portalId, fileId: own ?? systemFileId, filename: "scan.txt" });
    },
  }),
  row({
    entry: "files/upload-from-url:uploadFromUrl",
    scope: "file:upload",
    write: true,
    expect: PORTAL_UPLOAD,
    run: (viewer, w) => uploadFromUrl({ viewer, portalId: w.portalId, filename: "fetched.txt", fileUrl: `${w.receiverUrl}/file` }),
  }),
  row({
    entry: "files/folder-view:getFolderView",
    scope: "file:list",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getFolderView({ viewer, portalId: w.portalId, folderId: "main" }),
    sees: (r, w) => (r as { items: { id: string }[] }).items.some((i) => i.id === w.fileId),
  }),
  row({
    entry: "files/folder-view:getFolderTree",
    scope: "file:list",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getFolderTree({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "files/folder-view:getFolderPath",
    scope: "file:list",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getFolderPath({ viewer, portalId: w.portalId, folderId: "main" }),
  }),
  row({
    entry: "files/file-url:getFileUrl",
    scope: null,
    write: false,
    expect: { ...PORTAL_VIEW, guestNoDownload: "forbidden" },
    prepare: async (w) => {
      const id = randomUUID();
      return (
        await db.fileEntry.create({
          data: { id, orgId: w.orgId, portalId: w.portalId, name: "dl.pdf", storageKey: `orgs/${w.orgId}/files/${id}`, registeredAt: new Date() },
        })
      ).id;
    },
    run: (viewer, w, fileId) => getFileUrl({ viewer, portalId: w.portalId, fileId }),
  }),
  row({
    entry: "files/file-url:getFilePreview",
    scope: null,
    write: false,
    expect: { ...PORTAL_VIEW, guestNoDownload: "forbidden" },
    prepare: async (w) => {
      const id = randomUUID();
      return (
        await db.fileEntry.create({
          data: {
            id,
            orgId: w.orgId,
            portalId: w.portalId,
            name: "preview.pdf",
            contentType: "application/pdf",
            storageKey: `orgs/${w.orgId}/files/${id}`,
            registeredAt: new Date(),
          },
        })
      ).id;
    },
    run: (viewer, w, fileId) => getFilePreview({ viewer, portalId: w.portalId, fileId }),
  }),
  row({
    entry: "files/create-folder:createFolder",
    scope: null,
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => createFolder({ viewer, portalId: w.portalId, name: "Folder" }),
  }),
  row({
    entry: "files/rename-entry:renameEntry",
    scope: null,
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => renameEntry({ viewer, portalId: w.portalId, fileId: w.fileId, name: `${randomUUID()}.pdf` }),
  }),
  row({
    entry: "files/move-entry:moveEntry",
    scope: null,
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: async (w) => (await createFolder({ viewer: w.system, portalId: w.portalId, name: "Target" })).id,
    run: (viewer, w, parentId) => moveEntry({ viewer, portalId: w.portalId, fileId: w.fileId, parentId }),
  }),
  row({
    entry: "files/delete-entry:deleteEntry",
    scope: null,
    write: true,
    // Guests with `delete` delete their own uploads only: another guest's upload is not found for them.
    expect: { ...PORTAL_VIEW, guestNoUpload: "not_found", guestNoDownload: "not_found", guestNoDelete: "forbidden" },
    prepare: guestUpload,
    run: (viewer, w, fileId) => deleteEntry({ viewer, portalId: w.portalId, fileId }),
  }),
  row({
    entry: "files/restore-entry:restoreEntry",
    scope: null,
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: async (w) => {
      const fileId = await guestUpload(w);
      await deleteEntry({ viewer: w.system, portalId: w.portalId, fileId });
      return fileId;
    },
    run: (viewer, w, fileId) => restoreEntry({ viewer, portalId: w.portalId, fileId }),
  }),
  row({
    entry: "files/recently-deleted:listRecentlyDeleted",
    scope: null,
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => listRecentlyDeleted({ viewer, portalId: w.portalId }),
  }),
  // Tasks
  row({
    entry: "tasks/list-portal-tasks:listPortalTasks",
    scope: "task:read",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => listPortalTasks({ viewer, portalId: w.portalId }),
    sees: (r, w) => ids(r).includes(w.taskId),
  }),
  row({
    entry: "tasks/create-task:createTask",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => createTask({ viewer, portalId: w.portalId, title: "Sign" }),
  }),
  row({
    entry: "tasks/update-task:updateTask",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => updateTask({ viewer, taskId: w.taskId, title: randomUUID() }),
  }),
  row({
    entry: "tasks/complete-task:completeTask",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: freshTask,
    run: (viewer, _w, taskId) => completeTask({ viewer, taskId }),
  }),
  row({
    entry: "tasks/complete-task:completeTaskByUpload",
    scope: "file:upload",
    write: true,
    expect: PORTAL_UPLOAD,
    prepare: (w) => freshTask(w, { action_type: "File Request" }),
    run: (viewer, w, taskId) => completeTaskByUpload({ viewer, taskId, fileId: w.fileId }),
  }),
  row({
    entry: "tasks/task-answers:answerQuestion",
    scope: "task:write",
    write: true,
    expect: { ...CLIENT_TASK, system: "forbidden" },
    prepare: (w) => clientTask(w, "Question?"),
    run: (viewer, _w, taskId) => answerQuestion({ viewer, taskId, text: "The answer" }),
  }),
  row({
    entry: "tasks/task-answers:submitTaskForm",
    scope: "task:write",
    write: true,
    expect: { ...CLIENT_TASK, system: "forbidden" },
    prepare: (w) => clientTask(w, "Fill Form"),
    run: (viewer, _w, taskId) => submitTaskForm({ viewer, taskId, values: {} }),
  }),
  row({
    entry: "tasks/task-answers:markGeneralTaskDone",
    scope: "task:write",
    write: true,
    expect: CLIENT_TASK,
    prepare: (w) => clientTask(w, "General"),
    run: (viewer, _w, taskId) => markGeneralTaskDone({ viewer, taskId }),
  }),
  row({
    entry: "signing/sign-document:signDocument",
    scope: null,
    write: true,
    expect: { ...CLIENT_TASK, system: "forbidden" },
    prepare: signTask,
    run: (viewer, _w, taskId) =>
      signDocument({ viewer, taskId, signature: { kind: "typed", name: "Matrix Signer" }, consent: true, ip: "127.0.0.1", userAgent: "matrix" }),
  }),
  row({
    entry: "signing/sign-document:getDocumentToSign",
    scope: null,
    write: false,
    expect: CLIENT_TASK,
    prepare: signTask,
    run: (viewer, _w, taskId) => getDocumentToSign({ viewer, taskId }),
  }),
  row({
    entry: "tasks/delete-task:deleteTask",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: freshTask,
    run: (viewer, _w, taskId) => deleteTask({ viewer, taskId }),
  }),
  row({
    entry: "tasks/task-details:getTaskDetails",
    scope: "task:read",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getTaskDetails({ viewer, portalId: w.portalId, taskId: w.taskId }),
  }),
  row({
    entry: "signing/signature-record:getSignatureRecord",
    scope: "task:read",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getSignatureRecord({ viewer, portalId: w.portalId, taskId: w.taskId }),
  }),
  row({
    entry: "tasks/review-task:reviewTask",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: async (w) => {
      const taskId = await clientTask(w, "Question?");
      await completeTask({ viewer: w.system, taskId });
      return taskId;
    },
    run: (viewer, _w, taskId) => reviewTask({ viewer, taskId, decision: "return", reason: "Please say which month" }),
  }),
  // The firm's inbox: members and admins, each their own (another organization's admin has theirs,
  // without this organization's items); people only, web only.
  row({
    entry: "inbox/list-inbox:listInbox",
    scope: null,
    write: false,
    expect: { ...ORG_MEMBERS, system: "forbidden", ...LIST },
    prepare: (w) => inboxItem(w),
    run: (viewer) => listInbox({ viewer }),
    sees: (r, w) => (r as { items: { portalId: string }[] }).items.some((i) => i.portalId === w.portalId),
  }),
  row({
    entry: "inbox/list-inbox:inboxUnreadCount",
    scope: null,
    write: false,
    expect: { ...ORG_MEMBERS, system: "forbidden" },
    run: (viewer) => inboxUnreadCount({ viewer }),
  }),
  row({
    entry: "inbox/list-inbox:listInboxAssignees",
    scope: null,
    write: false,
    expect: { ...ORG_MEMBERS, system: "forbidden" },
    run: (viewer) => listInboxAssignees({ viewer }),
  }),
  row({
    entry: "inbox/seen:markInboxItemSeen",
    scope: null,
    write: true,
    expect: { ...ORG_MEMBERS, system: "forbidden", otherOrg: "not_found" },
    prepare: (w) => inboxItem(w),
    run: (viewer, _w, itemId) => markInboxItemSeen({ viewer, itemId }),
  }),
  row({
    entry: "inbox/seen:markAllInboxSeen",
    scope: null,
    write: true,
    expect: { ...ORG_MEMBERS, system: "forbidden" },
    run: (viewer) => markAllInboxSeen({ viewer }),
  }),
  // A portal's messages: its members' and guests' (view), people only, web only.
  row({
    entry: "messages/post-message:postMessage",
    scope: null,
    write: true,
    expect: { ...PORTAL_VIEW, system: "forbidden" },
    run: (viewer, w) => postMessage({ viewer, portalId: w.portalId, body: "Hello" }),
  }),
  row({
    entry: "messages/thread:listMessages",
    scope: null,
    write: false,
    expect: { ...PORTAL_VIEW, system: "forbidden" },
    run: (viewer, w) => listMessages({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "messages/thread:unreadMessageCount",
    scope: null,
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => unreadMessageCount({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "messages/thread:markThreadRead",
    scope: null,
    write: true,
    expect: { ...PORTAL_VIEW, system: "forbidden" },
    run: (viewer, w) => markThreadRead({ viewer, portalId: w.portalId, until: new Date() }),
  }),
  row({
    entry: "tasks/task-panel-data:getPortalTask",
    scope: "task:read",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getPortalTask({ viewer, portalId: w.portalId, taskId: w.taskId }),
  }),
  row({
    entry: "tasks/task-panel-data:listAssigneeOptions",
    scope: "task:write",
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => listAssigneeOptions({ viewer, portalId: w.portalId }),
    sees: (r) => (r as { members: unknown[] }).members.length > 0,
  }),
  row({
    entry: "tasks/form-fields:setTaskFormFields",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: async (w) => (await createTask({ viewer: w.system, portalId: w.portalId, title: "Form", action_type: "Fill Form" })).taskId,
    run: (viewer, _w, taskId) => setTaskFormFields({ viewer, taskId, fields: [{ label: "Name", kind: "text", required: true }] }),
  }),
  row({
    entry: "tasks/sign-document-task:setSignDocument",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: async (w) => {
      const { taskId } = await createTask({ viewer: w.system, portalId: w.portalId, title: "Sign", action_type: "Sign Document" });
      const pdf = await db.fileEntry.create({ data: { orgId: w.orgId, portalId: w.portalId, name: "sign.pdf", extension: "pdf", registeredAt: new Date() } });
      return { taskId, fileId: pdf.id };
    },
    run: (viewer, _w, t) => setSignDocument({ viewer, ...t, placement: { signaturePage: true } }),
  }),
  row({
    entry: "tasks/signers:setSigners",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: async (w) => (await createTask({ viewer: w.system, portalId: w.portalId, title: "Sign", action_type: "Sign Document" })).taskId,
    run: (viewer, w, taskId) => setSigners({ viewer, taskId, signers: [w.adminId], order: "sequential" }),
  }),
  row({
    entry: "tasks/signers:getSigners",
    scope: "task:read",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getSigners({ viewer, portalId: w.portalId, taskId: w.taskId }),
  }),
  // Guests, workflow, history, /me
  row({
    entry: "guests/invite-guests:inviteGuests",
    scope: "guest:invite",
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => inviteGuests({ viewer, portalId: w.portalId, guests: [{ email: `g-${randomUUID()}@test.example`, name: null }] }),
  }),
  row({
    entry: "guests/guest-view:getGuestPortalView",
    scope: "portal:read",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => getGuestPortalView({ viewer, portalId: w.portalId }),
    sees: (r, w) => (r as { files: { id: string }[] }).files.some((f) => f.id === w.fileId),
  }),
  row({
    entry: "guests/manage-guests:listPortalGuests",
    scope: "guest:invite",
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => listPortalGuests({ viewer, portalId: w.portalId }),
    sees: (r) => (r as unknown[]).length > 0,
  }),
  row({
    entry: "guests/list-guests:listGuests",
    // Who has access to a portal is part of reading the portal: portal:read, members' only.
    scope: "portal:read",
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => listGuests({ viewer, portalId: w.portalId }),
    sees: (r) => (r as { items: unknown[] }).items.length > 0,
  }),
  row({
    entry: "guests/invite-defaults:getInviteDefaults",
    scope: "guest:invite",
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => getInviteDefaults({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "guests/manage-guests:resendInvitation",
    scope: "guest:invite",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: freshGuest,
    run: (viewer, w, guestId) => resendInvitation({ viewer, portalId: w.portalId, guestId }),
  }),
  row({
    entry: "guests/manage-guests:removeGuest",
    scope: "guest:invite",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: freshGuest,
    run: (viewer, w, guestId) => removeGuest({ viewer, portalId: w.portalId, guestId }),
  }),
  row({
    entry: "workflow/list-workflow-states:listWorkflowStates",
    scope: "portal:read",
    write: false,
    expect: { ...ORG_MEMBERS, ...LIST },
    run: (viewer) => listWorkflowStates({ viewer }),
    sees: (r, w) => ids(r).includes(w.workflowStateId),
  }),
  row({
    entry: "audit/list-audit:listPortalAudit",
    scope: null,
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => listPortalAudit({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "me/get-me:getMe",
    scope: null,
    write: false,
    // Only an OAuth client acting for a user has a /me; any token may ask.
    expect: {
      admin: "forbidden",
      member: "forbidden",
      ...guests("forbidden"),
      guestElsewhere: "forbidden",
      otherOrg: "forbidden",
      system: "forbidden",
      clientWith: "ok",
    },
    run: (viewer) => getMe({ viewer }),
  }),
  // Webhooks: admins only
  row({
    entry: "webhooks/list-webhooks:listWebhooks",
    scope: "webhook:manage",
    write: false,
    expect: { ...ORG_ADMINS, ...LIST },
    run: (viewer) => listWebhooks({ viewer }),
    sees: (r, w) => ids(r).includes(w.webhookId),
  }),
  row({
    entry: "webhooks/create-webhook:createWebhook",
    scope: "webhook:manage",
    write: true,
    expect: ORG_ADMINS,
    run: (viewer, w) => createWebhook({ viewer, url: `${w.receiverUrl}/hook`, events: ["task.created"] }),
  }),
  row({
    entry: "webhooks/update-webhook:updateWebhook",
    scope: "webhook:manage",
    write: true,
    expect: ADMIN_BY_ID,
    run: (viewer, w) => updateWebhook({ viewer, webhookId: w.webhookId, events: ["portal.created", "task.created"] }),
  }),
  row({
    entry: "webhooks/delete-webhook:deleteWebhook",
    scope: "webhook:manage",
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) => (await createWebhook({ viewer: w.system, url: `${w.receiverUrl}/gone`, events: ["task.created"] })).webhook_id,
    run: (viewer, _w, webhookId) => deleteWebhook({ viewer, webhookId }),
  }),
  row({
    entry: "webhooks/test-webhook:testWebhook",
    scope: "webhook:manage",
    write: true,
    expect: ADMIN_BY_ID,
    run: (viewer, w) => testWebhook({ viewer, webhookId: w.webhookId }),
  }),
  row({
    entry: "webhooks/rotate-secret:rotateWebhookSecret",
    scope: "webhook:manage",
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) => (await createWebhook({ viewer: w.system, url: `${w.receiverUrl}/rotated`, events: ["task.created"] })).webhook_id,
    run: (viewer, _w, webhookId) => rotateWebhookSecret({ viewer, webhookId }),
  }),
  row({
    entry: "webhooks/deliveries:listDeliveries",
    scope: "webhook:manage",
    write: false,
    expect: ADMIN_BY_ID,
    run: (viewer, w) => listDeliveries({ viewer, webhookId: w.webhookId }),
    sees: (r, w) => ids(r).includes(w.deliveryId),
  }),
  row({
    entry: "webhooks/deliveries:findDelivery",
    scope: "webhook:manage",
    write: false,
    // A lookup that answers null for what is not there: another organization's delivery is null.
    expect: { ...ORG_ADMINS, otherOrg: "hidden" },
    run: (viewer, w) => findDelivery({ viewer, webhookId: w.webhookId, deliveryId: w.deliveryId }),
    sees: (r) => r !== null,
  }),
  row({
    entry: "webhooks/deliveries:getWebhook",
    scope: "webhook:manage",
    write: false,
    expect: ADMIN_BY_ID,
    run: (viewer, w) => getWebhook({ viewer, webhookId: w.webhookId }),
  }),
  row({
    entry: "webhooks/redeliver:redeliverWebhookDelivery",
    scope: "webhook:manage",
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) =>
      (
        await db.webhookDelivery.create({
          data: { webhookId: w.webhookId, eventType: "task.created", status: "failed", attemptCount: 4, completedAt: new Date() },
        })
      ).id,
    run: (viewer, w, deliveryId) => redeliverWebhookDelivery({ viewer, webhookId: w.webhookId, deliveryId }),
  }),
  // Organization settings: admins only, and never through the API
  row({
    entry: "members/manage-members:listMembers",
    scope: null,
    write: false,
    expect: { ...ORG_ADMINS, ...LIST },
    run: (viewer) => listMembers({ viewer }),
    sees: (r, w) => (r as { userId: string }[]).some((m) => m.userId === w.adminId),
  }),
  row({
    entry: "members/manage-members:changeMemberRole",
    scope: null,
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) => (await createTestUser({ orgId: w.orgId, role: "member" })).id,
    run: (viewer, _w, userId) => changeMemberRole({ viewer, userId, role: "admin" }),
  }),
  row({
    entry: "members/manage-members:removeMember",
    scope: null,
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) => (await createTestUser({ orgId: w.orgId, role: "member" })).id,
    run: (viewer, _w, userId) => removeMember({ viewer, userId }),
  }),
  row({
    entry: "members/member-invitations:inviteMember",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    run: (viewer) => inviteMember({ viewer, email: `invitee-${randomUUID()}@test.example`, role: "member" }),
  }),
  row({
    entry: "members/member-invitations:listMemberInvitations",
    scope: null,
    write: false,
    expect: ORG_ADMINS,
    run: (viewer) => listMemberInvitations({ viewer }),
  }),
  row({
    entry: "members/member-invitations:revokeMemberInvitation",
    scope: null,
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) => (await inviteMember({ viewer: w.system, email: `revoked-${randomUUID()}@test.example`, role: "member" })).id,
    run: (viewer, _w, invitationId) => revokeMemberInvitation({ viewer, invitationId }),
  }),
  // The organization's profile: everyone in it reads it (pages show its name); admins change it.
  row({
    entry: "organization/profile:getOrgProfile",
    scope: null,
    write: false,
    // Nothing secret (name, plan, colour): an API client's user reads it as on the web.
    expect: { admin: "ok", member: "ok", ...guests("ok"), guestElsewhere: "ok", otherOrg: "ok", system: "ok", clientWith: "ok", clientWithout: "ok" },
    run: (viewer) => getOrgProfile({ viewer }),
  }),
  row({
    entry: "organization/profile:updateOrgProfile",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    run: (viewer) => updateOrgProfile({ viewer, name: "Matrix organization", brandColor: "#1f4e79" }),
  }),
  row({
    entry: "time/settings:setOrgDefaultTimeZone",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    // UTC, the default the world's organization was made with: the rows after this one see no difference.
    run: (viewer) => setOrgDefaultTimeZone({ viewer, timeZone: "UTC" }),
  }),
  row({
    entry: "organization/logo:setOrgLogo",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    run: (viewer) => setOrgLogo({ viewer, bytes: Buffer.from(TINY_PNG, "base64") }),
  }),
  row({
    entry: "organization/logo:removeOrgLogo",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    run: (viewer) => removeOrgLogo({ viewer }),
  }),
  row({
    entry: "organization/profile:updateDefaultGuestPermissions",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    // The defaults the world's guests were made with: the rows after this one see no difference.
    run: (viewer) => updateDefaultGuestPermissions({ viewer, permissions: { view: true, download: true, upload: true, deleteOwnUploads: false } }),
  }),
  row({
    entry: "auth/require-two-factor:setRequireTwoFactor",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    // Making it optional needs no two-factor of the admin's own, and leaves the world as it was.
    run: (viewer) => setRequireTwoFactor({ viewer, required: false }),
  }),
  row({
    entry: "workflow/manage-workflow-states:addWorkflowState",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    run: (viewer) => addWorkflowState({ viewer, name: `State ${randomUUID()}` }),
  }),
  row({
    entry: "workflow/manage-workflow-states:renameWorkflowState",
    scope: null,
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) => (await addWorkflowState({ viewer: w.system, name: `Old ${randomUUID()}` })).id,
    run: (viewer, _w, workflowStateId) => renameWorkflowState({ viewer, workflowStateId, name: `New ${randomUUID()}` }),
  }),
  row({
    entry: "workflow/manage-workflow-states:reorderWorkflowStates",
    scope: null,
    write: true,
    // The viewer's own organization's states, reversed: another organization's admin reorders theirs.
    expect: ORG_ADMINS,
    run: async (viewer) => {
      const states = await db.workflowState.findMany({ where: { orgId: viewer.orgId }, orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }] });
      return reorderWorkflowStates({ viewer, workflowStateIds: states.map((s) => s.id).reverse() });
    },
  }),
  row({
    entry: "workflow/manage-workflow-states:removeWorkflowState",
    scope: null,
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) => (await addWorkflowState({ viewer: w.system, name: `Unused ${randomUUID()}` })).id,
    run: (viewer, _w, workflowStateId) => removeWorkflowState({ viewer, workflowStateId }),
  }),
  // Partner integration: settings for admins, push status and Resend for the firm
  row({
    entry: "partner/connection:getPartnerConnection",
    scope: null,
    write: false,
    expect: ORG_ADMINS,
    run: (viewer) => getPartnerConnection({ viewer }),
  }),
  row({
    entry: "partner/connection:testPartnerCredentials",
    scope: null,
    write: false,
    expect: ORG_ADMINS,
    run: (viewer, w) => testPartnerCredentials({ viewer, apiUrl: w.partnerUrl, apiKey: SANDBOX_API_KEY }),
  }),
  row({
    entry: "partner/connection:connectPartner",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    run: (viewer, w) => connectPartner({ viewer, apiUrl: w.partnerUrl, apiKey: SANDBOX_API_KEY }),
  }),
  row({
    entry: "partner/connection:disconnectPartner",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    prepare: (w) => connectPartner({ viewer: w.system, apiUrl: w.partnerUrl, apiKey: SANDBOX_API_KEY }),
    run: (viewer) => disconnectPartner({ viewer }),
  }),
  row({
    entry: "partner/verify-link:refreshPartnerLinkIfStale",
    scope: "portal:read",
    write: false,
    expect: PORTAL_VIEW,
    run: (viewer, w) => refreshPartnerLinkIfStale({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "partner/push:listPartnerPushStatuses",
    scope: null,
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => listPartnerPushStatuses({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "partner/push:resendPartnerPush",
    scope: null,
    write: true,
    expect: PORTAL_MEMBERS,
    // A failed push of the world's file: each viewer gets one to resend.
    prepare: async (w) => {
      const latest = await db.partnerPush.findFirst({ where: { fileId: w.fileId }, orderBy: { generation: "desc" } });
      await db.partnerPush.create({
        data: {
          orgId: w.orgId,
          portalId: w.portalId,
          entityId: w.fileId,
          fileId: w.fileId,
          event: "file.uploaded",
          customerId: "123456",
          status: "failed",
          generation: (latest?.generation ?? -1) + 1,
        },
      });
    },
    run: (viewer, w) => resendPartnerPush({ viewer, portalId: w.portalId, fileId: w.fileId }),
  }),
  // Requests at scale: bulk requests (organization-wide), recurring requests, template request lists
  row({
    entry: "requests/create-bulk-request:createBulkRequest",
    scope: "task:write",
    write: true,
    // Another organization's member names a portal that is not theirs: nothing to send to.
    expect: { ...ORG_MEMBERS, otherOrg: "hidden" },
    run: (viewer, w) =>
      createBulkRequest({ viewer, idempotencyKey: randomUUID(), target: { portal_ids: [w.portalId] }, spec: { title: "Bulk" } }).catch((e: unknown) => {
        if (isAppError(e) && e.message === "target: No portal to send to") return null;
        throw e;
      }),
    sees: (r) => r !== null,
  }),
  row({
    entry: "requests/send-bulk-batch:sendBulkBatch",
    scope: "task:write",
    write: true,
    expect: { ...ORG_MEMBERS, otherOrg: "not_found" },
    prepare: freshBulk,
    run: (viewer, _w, bulkRequestId) => sendBulkBatch({ viewer, bulkRequestId }),
  }),
  row({
    entry: "requests/send-bulk-batch:finishBulkRequest",
    scope: "task:write",
    write: true,
    expect: { ...ORG_MEMBERS, otherOrg: "not_found" },
    prepare: freshBulk,
    run: (viewer, _w, bulkRequestId) => finishBulkRequest({ viewer, bulkRequestId }),
  }),
  row({
    entry: "requests/bulk-progress:listBulkRequests",
    scope: "task:write",
    write: false,
    expect: { ...ORG_MEMBERS, ...LIST },
    prepare: freshBulk,
    run: (viewer) => listBulkRequests({ viewer }),
    sees: (r) => (r as unknown[]).length > 0,
  }),
  row({
    entry: "requests/bulk-progress:getBulkRequest",
    scope: "task:write",
    write: false,
    expect: { ...ORG_MEMBERS, otherOrg: "not_found" },
    prepare: freshBulk,
    run: (viewer, _w, bulkRequestId) => getBulkRequest({ viewer, bulkRequestId }),
  }),
  row({
    entry: "requests/bulk-progress:cancelBulkRequest",
    scope: "task:write",
    write: true,
    expect: { ...ORG_MEMBERS, otherOrg: "not_found" },
    prepare: freshBulk,
    run: (viewer, _w, bulkRequestId) => cancelBulkRequest({ viewer, bulkRequestId }),
  }),
  row({
    entry: "requests/request-documents:listRequestDocuments",
    scope: "task:write",
    write: false,
    expect: ORG_MEMBERS,
    run: (viewer) => listRequestDocuments({ viewer }),
  }),
  row({
    entry: "requests/recurring-requests:createRecurringRequest",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) =>
      createRecurringRequest({ viewer, portalId: w.portalId, spec: { title: "Monthly" }, recurrence: { frequency: "monthly", day_of_month: 1 } }),
  }),
  row({
    entry: "requests/recurring-requests:changeRecurringRequest",
    scope: "task:write",
    write: true,
    expect: PORTAL_MEMBERS,
    prepare: async (w) =>
      (
        await createRecurringRequest({
          viewer: w.system,
          portalId: w.portalId,
          spec: { title: "Monthly" },
          recurrence: { frequency: "monthly", day_of_month: 1 },
        })
      ).recurringRequestId,
    run: (viewer, _w, recurringRequestId) => changeRecurringRequest({ viewer, recurringRequestId, change: "pause" }),
  }),
  row({
    entry: "requests/recurring-requests:listRecurringRequests",
    scope: "task:write",
    write: false,
    expect: PORTAL_MEMBERS,
    run: (viewer, w) => listRecurringRequests({ viewer, portalId: w.portalId }),
  }),
  row({
    entry: "requests/materialize-occurrences:materializeDueOccurrences",
    scope: null,
    write: true,
    expect: { ...ORG_MEMBERS, admin: "forbidden", member: "forbidden", otherOrg: "forbidden" },
    run: (viewer) => materializeDueOccurrences({ viewer, now: new Date() }),
  }),
  row({
    entry: "requests/template-requests:addTemplateRequest",
    scope: "task:write",
    write: true,
    expect: TEMPLATE_MEMBERS,
    run: (viewer, w) => addTemplateRequest({ viewer, portalId: w.templateId, spec: { title: "Kick-off" } }),
  }),
  row({
    entry: "requests/template-requests:removeTemplateRequest",
    scope: "task:write",
    write: true,
    expect: TEMPLATE_MEMBERS,
    prepare: async (w) => (await addTemplateRequest({ viewer: w.system, portalId: w.templateId, spec: { title: "Kick-off" } })).templateRequestId,
    run: (viewer, _w, templateRequestId) => removeTemplateRequest({ viewer, templateRequestId }),
  }),
  row({
    entry: "requests/template-requests:listTemplateRequests",
    scope: "task:write",
    write: false,
    expect: TEMPLATE_MEMBERS,
    run: (viewer, w) => listTemplateRequests({ viewer, portalId: w.templateId }),
  }),
  // OAuth clients: admins only, and never through the API
  row({
    entry: "oauth/clients/create-client:createOAuthClient",
    scope: null,
    write: true,
    expect: ORG_ADMINS,
    run: (viewer) => createOAuthClient({ viewer, name: "App", redirectUris: ["https://app.example/cb"], allowedScopes: ["portal:read"] }),
  }),
  row({
    entry: "oauth/clients/manage-client:listOAuthClients",
    scope: null,
    write: false,
    expect: { ...ORG_ADMINS, ...LIST },
    run: (viewer) => listOAuthClients({ viewer }),
    sees: (r, w) => ids(r).includes(w.clientRecordId),
  }),
  row({
    entry: "oauth/clients/profile:updateClientProfile",
    scope: null,
    write: true,
    expect: ADMIN_BY_ID,
    run: (viewer, w) => updateClientProfile({ viewer, id: w.clientRecordId, publisherName: "Matrix Ltd", websiteUrl: "", logoUrl: "" }),
  }),
  row({
    entry: "oauth/clients/manage-client:rotateClientSecret",
    scope: null,
    write: true,
    expect: ADMIN_BY_ID,
    run: (viewer, w) => rotateClientSecret({ viewer, id: w.clientRecordId }),
  }),
  row({
    entry: "oauth/clients/manage-client:deleteOAuthClient",
    scope: null,
    write: true,
    expect: ADMIN_BY_ID,
    prepare: async (w) =>
      (await createOAuthClient({ viewer: w.system, name: "Old app", redirectUris: ["https://old.example/cb"], allowedScopes: ["portal:read"] })).client.id,
    run: (viewer, _w, id) => deleteOAuthClient({ viewer, id }),
  }),
];

/** Building blocks that take a viewer but are reached only through the entry points above. */
const BUILDING_BLOCKS = [
  "portals/get-portal:loadPortal",
  "portals/portal-record:loadPortalRecords",
  "portals/portal-record:loadPortalPage",
  "tasks/task-changes:lockTaskFor",
  // The inbox's own checks and reads, inside its entry points; whether a viewer is a client.
  "inbox/list-inbox:inboxMember",
  "inbox/list-inbox:seenWatermark",
  "inbox/record-activity:isClient",
  // Parts of the request makers above (createTask's own checks apply inside them).
  "requests/make-request-task:checkRequestSpec",
  "requests/make-request-task:makeRequestTask",
  "requests/template-requests:applyTemplateRequests",
];

let world: World;
let viewers: Omit<Record<ViewerKey, Viewer>, "clientWith" | "clientWithout">;
let adminId: string;
let clientPublicId: string;
let inngestApi: InngestReceiver;
let receiver: WebhookReceiver;
let partnerSandbox: PartnerSandbox;
const savedEnv = { ...process.env };

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  partnerSandbox = await startPartnerSandbox();
  inngestApi = await startInngestReceiver();
  Object.assign(process.env, {
    INNGEST_BASE_URL: inngestApi.url,
    INNGEST_DEV: "1",
    OUTBOUND_ALLOW_PRIVATE: "true",
    PDF_SIGNING_P12: `base64:${createSelfSignedP12({ commonName: "Matrix", password: "matrix" }).toString("base64")}`,
    PDF_SIGNING_P12_PASSWORD: "matrix",
  });
  delete process.env.INNGEST_EVENT_KEY;
  resetEnvForTests();

  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  const member = await createTestUser({ orgId: org.id, role: "member" });
  const portal = await createTestPortal({ orgId: org.id });
  const otherPortal = await createTestPortal({ orgId: org.id });
  const template = await createTestPortal({ orgId: org.id, isTemplate: true });
  const [state] = await createTestWorkflowStates(org.id, ["Onboarding"]);
  const system = systemViewer(org.id);
  // Stored as invitations store them ({view, download, upload, delete}); `{}` is a row written
  // before any key existed and reads as the defaults (no deleting).
  const guestRows: [ViewerKey, string, object][] = [
    ["guest", portal.id, { view: true, download: true, upload: true, delete: true }],
    ["guestNoView", portal.id, { view: false, download: true, upload: true, delete: true }],
    ["guestNoUpload", portal.id, { view: true, download: true, upload: false, delete: true }],
    ["guestNoDownload", portal.id, { view: true, download: false, upload: true, delete: true }],
    ["guestNoDelete", portal.id, {}],
    ["guestElsewhere", otherPortal.id, { view: true, download: true, upload: true, delete: true }],
  ];
  const guestIds: Partial<Record<ViewerKey, string>> = {};
  for (const [key, portalId, permissions] of guestRows) {
    const user = await db.user.create({ data: { email: `${key}-${randomUUID()}@test.example` } });
    await db.portalGuest.create({ data: { orgId: org.id, portalId, userId: user.id, permissions, acceptedAt: new Date() } });
    guestIds[key] = user.id;
  }
  const file = await db.fileEntry.create({
    data: { orgId: org.id, portalId: portal.id, name: "id.pdf", registeredAt: new Date(), uploadedById: guestIds.guest },
  });
  const { taskId } = await createTask({ viewer: system, portalId: portal.id, title: "Bank statements" });
  const { client } = await createTestClient({ orgId: org.id, actorUserId: admin.id });
  const webhook = await createWebhook({ viewer: system, url: `${receiver.url}/hook`, events: ["task.created"] });
  const delivery = await db.webhookDelivery.create({
    data: { webhookId: webhook.webhook_id, eventType: "task.created", status: "succeeded", attemptCount: 1, completedAt: new Date() },
  });

  const otherOrg = await createTestOrg();
  const otherAdmin = await createTestUser({ orgId: otherOrg.id, role: "admin" });

  adminId = admin.id;
  clientPublicId = client.clientId;
  world = {
    orgId: org.id,
    portalId: portal.id,
    otherPortalId: otherPortal.id,
    templateId: template.id,
    fileId: file.id,
    taskId,
    webhookId: webhook.webhook_id,
    deliveryId: delivery.id,
    clientRecordId: client.id,
    workflowStateId: state!.id,
    adminId: admin.id,
    system,
    receiverUrl: receiver.url,
    partnerUrl: partnerSandbox.url,
  };
  const guestViewer = (key: ViewerKey) => getUserViewer(guestIds[key]!, org.id);
  viewers = {
    admin: await getUserViewer(admin.id, org.id),
    member: await getUserViewer(member.id, org.id),
    guest: await guestViewer("guest"),
    guestNoView: await guestViewer("guestNoView"),
    guestNoUpload: await guestViewer("guestNoUpload"),
    guestNoDownload: await guestViewer("guestNoDownload"),
    guestNoDelete: await guestViewer("guestNoDelete"),
    guestElsewhere: await guestViewer("guestElsewhere"),
    otherOrg: await getUserViewer(otherAdmin.id, otherOrg.id),
    system,
  };
}, 60_000);

afterAll(async () => {
  await receiver.close();
  await partnerSandbox.close();
  await inngestApi.close();
  process.env = savedEnv;
  resetEnvForTests();
});

/** The admin through the OAuth client, with these scopes (as the API wrapper makes the viewer). */
const clientViewer = (scopes: readonly Scope[]) =>
  viewerFromApiAuth({ orgId: world.orgId, userId: adminId, role: "admin", clientId: clientPublicId, clientRecordId: world.clientRecordId, scopes });

/** Everything of the organization a write could touch. */
async function snapshot(orgId: string) {
  const where = { orgId };
  const [portals, tasks, files, guestRows, invitations, webhooks, deliveries, clients, audit, events, states, memberships, grants] = await Promise.all([
    db.portal.findMany({ where, orderBy: { id: "asc" } }),
    db.task.findMany({ where, orderBy: { id: "asc" } }),
    db.fileEntry.findMany({ where, orderBy: { id: "asc" } }),
    db.portalGuest.findMany({ where, orderBy: { id: "asc" } }),
    db.invitation.count({ where }),
    db.webhook.findMany({ where, orderBy: { id: "asc" } }),
    db.webhookDelivery.findMany({ where: { webhook: { orgId } }, orderBy: { id: "asc" } }),
    db.oAuthClient.findMany({ where, orderBy: { id: "asc" } }),
    db.auditLog.count({ where }),
    db.event.count({ where }),
    db.workflowState.findMany({ where, orderBy: { id: "asc" } }),
    db.membership.findMany({ where, orderBy: { id: "asc" } }),
    db.oAuthGrant.findMany({ where, orderBy: { id: "asc" } }),
  ]);
  return { portals, tasks, files, guestRows, invitations, webhooks, deliveries, clients, audit, events, states, memberships, grants };
}

async function outcomeOf(r: Row, viewer: Viewer, target: unknown): Promise<Outcome> {
  try {
    const result = await r.run(viewer, world, target);
    if (r.sees) return r.sees(result, world) ? "ok" : "hidden";
    return "ok";
  } catch (e) {
    if (isAppError(e) && (e.code === "not_found" || e.code === "forbidden" || e.code === "insufficient_scope")) return e.code;
    throw e;
  }
}

describe("the access matrix: every domain entry point x every kind of viewer", () => {
  it.each(ROWS.map((r) => [r.entry, r] as const))(
    "%s",
    async (_entry, r) => {
      const cases: [ViewerKey, Viewer, Outcome][] = Object.entries(viewers).map(([key, v]) => [key as ViewerKey, v, r.expect[key as keyof typeof r.expect]!]);
      const otherScopes = r.scope ? ALL_SCOPES.filter((s) => s !== r.scope) : ALL_SCOPES;
      cases.push(["clientWith", clientViewer(r.scope ? [r.scope] : ALL_SCOPES), r.expect.clientWith ?? (r.scope ? "ok" : "forbidden")]);
      if (r.scope) cases.push(["clientWithout", clientViewer(otherScopes), r.expect.clientWithout ?? "insufficient_scope"]);

      const seen: Record<string, Outcome> = {};
      const expected: Record<string, Outcome> = {};
      for (const [key, viewer, want] of cases) {
        const target = r.prepare ? await r.prepare(world) : undefined;
        const before = r.write && want !== "ok" ? await snapshot(world.orgId) : null;
        seen[key] = await outcomeOf(r, viewer, target);
        expected[key] = want;
        // A refused write changes nothing at all in the organization.
        if (before) expect(await snapshot(world.orgId), `${r.entry} as ${key} changed rows`).toEqual(before);
      }
      expect(seen).toEqual(expected);
    },
    120_000,
  );

  it("has a row for every exported lib/ function that takes a viewer", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    const found = viewerFunctions(root).filter((e) => !BUILDING_BLOCKS.includes(e));
    expect(found.length).toBeGreaterThan(20);
    expect(found.filter((e) => !ROWS.some((r) => r.entry === e))).toEqual([]);
    expect(ROWS.map((r) => r.entry).filter((e) => !found.includes(e))).toEqual([]);
  });
});

/**
 * `<path>:<name>` of every exported function in lib/ (not lib/access, not tests) whose first
 * parameter is a viewer, destructures one, or has a type declared in the same file with one.
 */
function viewerFunctions(root: string): string[] {
  const result: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) {
        if (!["generated", "access", "test-support"].includes(name)) walk(full);
      } else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) {
        result.push(...viewerFunctionsOf(full, path.relative(root, full).replace(/\.ts$/, "")));
      }
    }
  };
  walk(root);
  return result;
}

function viewerFunctionsOf(file: string, id: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const declaredWithViewer = new Set<string>();
  for (const s of source.statements) {
    if ((ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) && /\bviewer\??\s*:/.test(s.getText())) declaredWithViewer.add(s.name.text);
  }
  const names: string[] = [];
  for (const s of source.statements) {
    if (!ts.isFunctionDeclaration(s) || !s.name || !s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) continue;
    const first = s.parameters[0];
    if (!first) continue;
    const binding = first.name;
    const takesViewer =
      (ts.isIdentifier(binding) && binding.text === "viewer") ||
      (ts.isObjectBindingPattern(binding) && binding.elements.some((e) => e.name.getText() === "viewer")) ||
      (first.type !== undefined && ts.isTypeReferenceNode(first.type) && declaredWithViewer.has(first.type.typeName.getText()));
    if (takesViewer) names.push(`${id}:${s.name.text}`);
  }
  return names;
}
