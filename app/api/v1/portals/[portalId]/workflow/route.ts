import { apiRoute, json } from "@/lib/api";
import { setPortalWorkflowOperation } from "@/lib/api/operations/portals";
import { toPortalResponse } from "@/lib/portals/to-response";
import { updatePortal } from "@/lib/portals/update-portal";

// POST /api/v1/portals/{portalId}/workflow - set the workflow state (the PATCH's workflow change)
export const POST = apiRoute(setPortalWorkflowOperation, async ({ viewer, params, body }) =>
  json(toPortalResponse(await updatePortal({ viewer, portalId: params.portalId, ...body }))),
);
