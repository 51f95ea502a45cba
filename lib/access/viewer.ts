import { db } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import type { Scope } from "@/lib/access/scopes";
import { readGuestPermissions, type GuestPermissions } from "./permissions";

// Who is asking, made once per request (API wrapper, web helper) and handed to every domain
// function, which decides with lib/access/policy.ts what the viewer may see and do.

export type Role = "admin" | "member" | "guest";

interface GuestPortal {
  portalId: string;
  permissions: GuestPermissions;
}

/** Who did something: a signed-in user (web), a user through an OAuth client (API), or the system. */
export type Actor = { type: "user"; userId: string; oauthClientId?: string | null } | { type: "system" };

/** The OAuth client a user acts through (API requests): the scopes of the token limit the user. */
interface ViewerClient {
  /** OAuthClient.id (audit rows, uploads). */
  id: string;
  /** The public client_id. */
  clientId: string;
  scopes: readonly Scope[];
}

export interface UserViewer {
  kind: "user";
  orgId: string;
  userId: string;
  role: Role;
  /** Guests: the portals they belong to, each with its permissions; empty for members and admins. */
  guestPortals: readonly GuestPortal[];
  /** Set when the user acts through an OAuth client (the API); null on the web. */
  client: ViewerClient | null;
}

/** Background work (Inngest functions, scripts): acts for the organization, no person behind it. */
export interface SystemViewer {
  kind: "system";
  orgId: string;
}

export type Viewer = UserViewer | SystemViewer;

/** The actor of the viewer's audit rows. */
export function actorOf(viewer: Viewer): Actor {
  if (viewer.kind === "system") return { type: "system" };
  return { type: "user", userId: viewer.userId, oauthClientId: viewer.client?.id ?? null };
}

/** The user behind the viewer, or null for the system. */
export function userIdOf(viewer: Viewer): string | null {
  return viewer.kind === "user" ? viewer.userId : null;
}

/**
 * The system's way in, explicit so that it is visible where it is used: only `inngest/`, `scripts/`
 * and tests call this. It may do everything in its organization.
 */
export function systemViewer(orgId: string): SystemViewer {
  return { kind: "system", orgId };
}

/**
 * The viewer of an API request, from what authentication already loaded (no extra query): API
 * tokens belong to members and admins only (the grant check requires a membership).
 */
export function viewerFromApiAuth(auth: {
  orgId: string;
  userId: string;
  role: "admin" | "member";
  clientId: string;
  clientRecordId: string;
  scopes: readonly Scope[];
}): UserViewer {
  return {
    kind: "user",
    orgId: auth.orgId,
    userId: auth.userId,
    role: auth.role,
    guestPortals: [],
    client: { id: auth.clientRecordId, clientId: auth.clientId, scopes: auth.scopes },
  };
}

/**
 * A signed-in user in an organization: their membership, else the portals they are a guest of
 * (active portals only), in one round trip. null when they have no role there.
 */
export async function findUserViewer(userId: string, orgId: string): Promise<UserViewer | null> {
  if (!isUuid(orgId)) return null;
  const [membership, guestOf] = await Promise.all([
    db.membership.findUnique({ where: { orgId_userId: { orgId, userId } }, select: { role: true } }),
    db.portalGuest.findMany({
      where: { orgId, userId, portal: { deletedAt: null } },
      select: { portalId: true, permissions: true },
      orderBy: { invitedAt: "asc" },
    }),
  ]);
  const base = { kind: "user" as const, orgId, userId, client: null };
  if (membership) return { ...base, role: membership.role, guestPortals: [] };
  if (guestOf.length === 0) return null;
  return { ...base, role: "guest", guestPortals: guestOf.map((g) => ({ portalId: g.portalId, permissions: readGuestPermissions(g.permissions) })) };
}

/** As findUserViewer; a user with no role in the organization gets not_found (D4: it does not leak). */
export async function getUserViewer(userId: string, orgId: string): Promise<UserViewer> {
  const viewer = await findUserViewer(userId, orgId);
  if (!viewer) throw notFound("Organization");
  return viewer;
}
