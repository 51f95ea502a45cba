import { apiRoute, json } from "@/lib/api";
import { getPortal } from "@/lib/portals/get-portal";
import { getPortalOperation, updatePortalOperation } from "@/lib/portals/operations";
import { toPortalResponse } from "@/lib/portals/to-response";
import { updatePortal } from "@/lib/portals/update-portal";

// GET /api/v1/portals/{portalId} - one portal
export const GET = apiRoute(getPortalOperation, async ({ auth, params }) =>
  json(toPortalResponse(await getPortal({ orgId: auth.orgId, portalId: params.portalId }))),
);

// PATCH /api/v1/portals/{portalId} - change the fields sent
export const PATCH = apiRoute(updatePortalOperation, async ({ auth, params, body }) =>
  json(toPortalResponse(await updatePortal({ orgId: auth.orgId, actor: auth.actor, portalId: params.portalId, ...body }))),
);
