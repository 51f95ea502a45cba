import { apiRoute, exactJson, json } from "@/lib/api";
import { linkHeader } from "@/lib/api/pagination";
import { createPortal } from "@/lib/portals/create-portal";
import { listPortals } from "@/lib/portals/list-portals";
import { createPortalOperation, listPortalsOperation } from "@/lib/api/operations/portals";
import { toPortalBody, toPortalResponse } from "@/lib/portals/to-response";

// GET /api/v1/portals - list, templates, lookup by external system id
export const GET = apiRoute(listPortalsOperation, async ({ viewer, query, url }) => {
  const { externalSystem, externalId, templatesOnly, limit, cursor } = query;
  const { items, next } = await listPortals({
    viewer,
    templatesOnly,
    externalId: externalSystem !== undefined && externalId !== undefined ? { system: externalSystem, value: externalId } : undefined,
    limit,
    cursor,
  });
  // exactJson: toPortalBody writes the response as sent, every field in the schema's order (lib/api/response.ts).
  return exactJson(items.map(toPortalBody), 200, linkHeader(url, next));
});

// POST /api/v1/portals - create a portal or template
export const POST = apiRoute(createPortalOperation, async ({ viewer, body }) => {
  const portal = await createPortal({ viewer, ...body });
  return json(toPortalResponse(portal), 201);
});
