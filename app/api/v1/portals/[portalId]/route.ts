import { apiRoute, json } from "@/lib/api";
import { getPortal } from "@/lib/portals/get-portal";
import { getPortalOperation, updatePortalOperation } from "@/lib/api/operations/portals";
import { toPortalResponse } from "@/lib/portals/to-response";
import { updatePortal } from "@/lib/portals/update-portal";

// GET /api/v1/portals/{portalId} - one portal
export const GET = apiRoute(getPortalOperation, async ({ viewer, params }) => json(toPortalResponse(await getPortal({ viewer, portalId: params.portalId }))));

// PATCH /api/v1/portals/{portalId} - change the fields sent
export const PATCH = apiRoute(updatePortalOperation, async ({ viewer, params, body }) =>
  json(toPortalResponse(await updatePortal({ viewer, portalId: params.portalId, ...body }))),
);
