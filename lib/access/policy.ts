import { AppError, forbidden, notFound } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Scope } from "@/lib/access/scopes";
import type { GuestPermission } from "./permissions";
import type { Role, UserViewer, Viewer } from "./viewer";

// The access policy: who may do what, decided here and nowhere else. Every domain read builds its
// `where` with the builders below and every domain entry point calls a guard first.
//
// The error rule: not_found when the viewer may not know the thing exists (another organization's
// id, a portal a guest does not belong to, a deleted one); forbidden when the viewer can see it but
// lacks the right (a guest without `upload`, a member managing webhooks); insufficient_scope when
// the user may but the OAuth client's token lacks the scope of the action (the API wrapper checks
// the operation's scope first with the same error, so both always agree).

/** Actions on one portal and what is inside it. */
export type PortalAction =
  | "view"
  | "listFiles"
  | "upload"
  | "download"
  | "deleteOwnUpload"
  | "viewTasks"
  /** A guest completing a task assigned to them (a later issue); members complete with manageTasks. */
  | "completeAssignedTask"
  | "manageTasks"
  | "update"
  | "invite"
  /** The portal's guests with their user ids and permissions: the firm's (members, admins, clients with portal:read). */
  | "listGuests"
  | "viewHistory"
  /** Folders, renames, moves, deleting any entry, the recently deleted list and restores: the firm's, web only. */
  | "manageFiles"
  /** The portal's message thread: reading it and writing to it (members, admins, the portal's guests); web only. */
  | "messages";

interface Rule {
  /** The scope an OAuth client needs; null: not possible through the API at all. */
  scope: Scope | null;
  /** The guest permission needed (besides `view`); null: guests never. */
  guest: GuestPermission | null;
}

const PORTAL_RULES: Record<PortalAction, Rule> = {
  view: { scope: "portal:read", guest: "view" },
  listFiles: { scope: "file:list", guest: "view" },
  upload: { scope: "file:upload", guest: "upload" },
  download: { scope: null, guest: "download" },
  deleteOwnUpload: { scope: null, guest: "deleteOwnUploads" },
  viewTasks: { scope: "task:read", guest: "view" },
  completeAssignedTask: { scope: "task:write", guest: "view" },
  manageTasks: { scope: "task:write", guest: null },
  update: { scope: "portal:write", guest: null },
  invite: { scope: "guest:invite", guest: null },
  listGuests: { scope: "portal:read", guest: null },
  viewHistory: { scope: null, guest: null },
  manageFiles: { scope: null, guest: null },
  messages: { scope: null, guest: "view" },
};

/** Actions on the organization as a whole. */
export type OrgAction =
  | "createPortal"
  | "listWorkflowStates"
  | "manageWebhooks"
  | "manageOAuthClients"
  | "openSettings"
  | "authorizeApps"
  | "deletePortal"
  | "manageMembers"
  | "manageWorkflowStates"
  | "manageOrganization"
  /** Connecting, testing and disconnecting the partner integration: admins, web only. */
  | "managePartner"
  /** One request sent to many portals at once (bulk requests): members and admins. */
  | "sendBulkRequests"
  /** The firm's inbox (what clients did across portals) and its seen state: members and admins, web only. */
  | "viewInbox";

interface OrgRule {
  /** The scope an OAuth client needs; null: not possible through the API at all. */
  scope: Scope | null;
  /** The least role on the web. */
  minRole: Exclude<Role, "guest">;
  /** The least role of the user behind an OAuth client, when it differs from the web's. */
  clientMinRole?: Exclude<Role, "guest">;
}

const ORG_RULES: Record<OrgAction, OrgRule> = {
  createPortal: { scope: "portal:write", minRole: "member" },
  listWorkflowStates: { scope: "portal:read", minRole: "member" },
  // The settings page is the admins'; through the API the scope decides (spec: webhook:manage),
  // and which scopes a client may request is the admins' choice (API settings).
  manageWebhooks: { scope: "webhook:manage", minRole: "admin", clientMinRole: "member" },
  manageOAuthClients: { scope: null, minRole: "admin" },
  /** The settings pages (API clients, webhooks, connected apps): not for guests, who get not-found. */
  openSettings: { scope: null, minRole: "member" },
  /** Approving an OAuth client on the consent screen: members and admins; guests never. */
  authorizeApps: { scope: null, minRole: "member" },
  // Permanent deletion: admins, web only (spec: there is no delete endpoint for portals).
  deletePortal: { scope: null, minRole: "admin" },
  /** Organization settings: the member list, roles, removals; admins, web only. */
  manageMembers: { scope: null, minRole: "admin" },
  /** Adding, renaming, reordering and removing workflow states; admins, web only. */
  manageWorkflowStates: { scope: null, minRole: "admin" },
  /** The organization's profile (name, logo, brand colour) and default guest permissions; admins, web only. */
  manageOrganization: { scope: null, minRole: "admin" },
  managePartner: { scope: null, minRole: "admin" },
  sendBulkRequests: { scope: "task:write", minRole: "member" },
  viewInbox: { scope: null, minRole: "member" },
};

const RANK: Record<Role, number> = { guest: 0, member: 1, admin: 2 };

/** 403 insufficient_scope with the RFC 6750 challenge naming the scope needed (D3). */
export function insufficientScope(scope: Scope): AppError {
  return new AppError("insufficient_scope", `This request needs the ${scope} scope`, {
    "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}"`,
  });
}

function requireClientScope(viewer: UserViewer, scope: Scope | null): void {
  if (!viewer.client) return;
  if (scope === null) throw forbidden("This cannot be done through the API");
  if (!viewer.client.scopes.includes(scope)) throw insufficientScope(scope);
}

/** Requires at least `minimum` in the organization (forbidden otherwise); the system passes. */
export function requireRole(viewer: Viewer, minimum: Role): void {
  if (viewer.kind === "system") return;
  if (RANK[viewer.role] < RANK[minimum]) throw forbidden(`This needs the ${minimum} role`);
}

/** An organization-level action: its minimum role, and for an OAuth client its scope. */
export function requireOrg(viewer: Viewer, action: OrgAction): void {
  const rule = ORG_RULES[action];
  const viaClient = viewer.kind === "user" && viewer.client !== null;
  requireRole(viewer, viaClient ? (rule.clientMinRole ?? rule.minRole) : rule.minRole);
  if (viewer.kind === "user") requireClientScope(viewer, rule.scope);
}

/**
 * May the viewer do `action` in this portal? Decided from the viewer alone (no query): whether
 * the portal exists in the organization is up to the domain's query, built with portalWhere.
 * `what` names the thing asked for in a not_found (a task's portal: "Task").
 */
export function requirePortal(viewer: Viewer, portalId: string, action: PortalAction, what = "Portal"): void {
  if (viewer.kind === "system") return;
  const rule = PORTAL_RULES[action];
  if (viewer.role === "guest") {
    const membership = viewer.guestPortals.find((g) => g.portalId === portalId);
    if (!membership) throw notFound(what);
    if (!membership.permissions.view) throw forbidden("You do not have access to this portal");
    if (rule.guest === null || !membership.permissions[rule.guest]) throw forbidden(`Guests of this portal may not ${DESCRIBE[action]}`);
  }
  requireClientScope(viewer, rule.scope);
}

const DESCRIBE: Record<PortalAction, string> = {
  view: "view it",
  listFiles: "list its files",
  upload: "upload files",
  download: "download files",
  deleteOwnUpload: "delete their uploads",
  viewTasks: "view its tasks",
  completeAssignedTask: "complete tasks",
  manageTasks: "manage tasks",
  update: "change it",
  invite: "invite guests",
  listGuests: "list its guests",
  viewHistory: "view its history",
  manageFiles: "organize its files",
  messages: "write messages",
};

/** The portal ids where a guest may do `action`. */
function guestPortalIds(viewer: UserViewer, action: PortalAction): string[] {
  const needed = PORTAL_RULES[action].guest;
  if (needed === null) return [];
  return viewer.guestPortals.filter((g) => g.permissions.view && g.permissions[needed]).map((g) => g.portalId);
}

/**
 * What portalWhere restricts, for a statement written in SQL (the API's portal list): the
 * viewer's organization (active portals only, always), and for a guest the portals they may do
 * `action` on (null: every portal of the organization).
 */
export function portalScope(viewer: Viewer, action: PortalAction = "view"): { orgId: string; portalIds: string[] | null } {
  return { orgId: viewer.orgId, portalIds: viewer.kind === "user" && viewer.role === "guest" ? guestPortalIds(viewer, action) : null };
}

/** The active portals of the viewer's organization on which the viewer may do `action`. */
export function portalWhere(viewer: Viewer, action: PortalAction = "view"): Prisma.PortalWhereInput {
  const { orgId, portalIds } = portalScope(viewer, action);
  return { orgId, deletedAt: null, ...(portalIds ? { id: { in: portalIds } } : {}) };
}

/** Registered, not deleted entries of the portals where the viewer may do `action`; own uploads for deleteOwnUpload by a guest. */
export function fileWhere(viewer: Viewer, action: PortalAction = "listFiles"): Prisma.FileEntryWhereInput {
  const own = action === "deleteOwnUpload" && viewer.kind === "user" && viewer.role === "guest" ? { uploadedById: viewer.userId } : {};
  return { orgId: viewer.orgId, status: "registered", deletedAt: null, portal: portalWhere(viewer, action), ...own };
}

/** Not deleted tasks of the portals where the viewer may do `action`. */
export function taskWhere(viewer: Viewer, action: PortalAction = "viewTasks"): Prisma.TaskWhereInput {
  return { orgId: viewer.orgId, deletedAt: null, portal: portalWhere(viewer, action) };
}

/**
 * A list across portals (the portal list): an OAuth client needs the action's scope; the list is
 * then narrowed by the where-builders, so a guest sees the portals they belong to.
 */
export function requireAnyPortal(viewer: Viewer, action: PortalAction): void {
  if (viewer.kind === "user") requireClientScope(viewer, PORTAL_RULES[action].scope);
}

/** Whether requireOrg would pass: for pages choosing what to show (the domain still refuses). */
export function mayOrg(viewer: Viewer, action: OrgAction): boolean {
  try {
    requireOrg(viewer, action);
    return true;
  } catch (e) {
    if (e instanceof AppError) return false;
    throw e;
  }
}

/** Whether requirePortal would pass: for pages choosing which controls to show (the domain still refuses). */
export function mayPortal(viewer: Viewer, portalId: string, action: PortalAction): boolean {
  try {
    requirePortal(viewer, portalId, action);
    return true;
  } catch (e) {
    if (e instanceof AppError) return false;
    throw e;
  }
}
