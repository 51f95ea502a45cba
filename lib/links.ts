import { env } from "@/lib/env";

/** `{app_url}/org/<org_id>/vault/<portal_id>/folder/<folder or main>` (spec section 1, D27). */
export function portalPath(orgId: string, portalId: string, folderId: string | null = null): string {
  return `/org/${orgId}/vault/${portalId}/folder/${folderId ?? "main"}`;
}

export function portalWebUrl(orgId: string, portalId: string): string {
  return env().APP_URL + portalPath(orgId, portalId);
}

/** The file preview link: the portal link plus `?file=<file_id>`. */
export function fileWebUrl(orgId: string, portalId: string, fileId: string): string {
  return `${portalWebUrl(orgId, portalId)}?file=${fileId}`;
}

/** The portal's other member views, beside its folders: `/org/<org>/vault/<portal>/<view>`. */
export type PortalView = "tasks" | "messages" | "guests" | "history" | "deleted" | "settings";

export function portalViewPath(orgId: string, portalId: string, view: PortalView): string {
  return `/org/${orgId}/vault/${portalId}/${view}`;
}

/** A guest's view of a portal (tasks first, then the files they may see); members' portal links send guests here. */
export function guestPortalPath(orgId: string, portalId: string): string {
  return `/org/${orgId}/client/${portalId}`;
}

/** A file of a portal as its client opens it: the portal's page with the file's preview. */
export function guestFilePath(orgId: string, portalId: string, fileId: string): string {
  return `${guestPortalPath(orgId, portalId)}?file=${fileId}`;
}

/** The guest home: every portal the signed-in guest belongs to, across organizations. */
export const GUEST_HOME_PATH = "/guest";

/**
 * The download route of a file for a signed-in member, or a guest of the portal with download
 * permission: it answers with a redirect to a signed storage URL valid for at most 5 minutes (D27).
 * `inline` asks for an inline disposition (previews of PDF, images, text, CSV only).
 */
export function fileDownloadPath(orgId: string, portalId: string, fileId: string, inline = false): string {
  return `/org/${orgId}/vault/${portalId}/file/${fileId}/download${inline ? "?inline=1" : ""}`;
}
