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
