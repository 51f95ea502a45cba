import { apiRoute, json } from "@/lib/api";
import { setPortalWorkflowOperation } from "@/lib/portals/operations";
import { toPortalResponse } from "@/lib/portals/to-response";
import { updatePortal } from "@/lib/portals/update-portal";

// POST /api/v1/portals/{portalId}/workflow - set the workflow state (the PATCH's workflow change)
export const POST = apiRoute(setPortalWorkflowOperation, async ({ auth, params, body }) =>
  json(toPortalResponse(await updatePortal({ orgId: auth.orgId, actor: auth.actor, portalId: params.portalId, ...body }))),
);
