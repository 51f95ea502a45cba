import type { z } from "zod";
import { GET as getOne, PATCH as patchOne } from "@/app/api/v1/portals/[portalId]/route";
import { POST as postWorkflow } from "@/app/api/v1/portals/[portalId]/workflow/route";
import { GET as getList, POST as postCreate } from "@/app/api/v1/portals/route";
import { callRoute, type CallResult } from "@/test/routes/call-route";
import type { PortalSchema } from "@/lib/portals/schemas";

// The portal endpoints as an API client calls them, for integration tests.

export type PortalJson = z.output<typeof PortalSchema>;
export type ErrorJson = { error: string; error_description: string };

type Result<T> = CallResult<T & Partial<ErrorJson>>;

export function portalApi(token: string) {
  return {
    list: (query = ""): Promise<CallResult<PortalJson[] & Partial<ErrorJson>>> => callRoute(getList, { path: `/api/v1/portals${query}`, token }),
    create: (body: unknown, headers?: Record<string, string>): Promise<Result<PortalJson>> =>
      callRoute(postCreate, { method: "POST", path: "/api/v1/portals", token, body, headers }),
    get: (portalId: string): Promise<Result<PortalJson>> => callRoute(getOne, { path: `/api/v1/portals/${portalId}`, token, params: { portalId } }),
    patch: (portalId: string, body: unknown): Promise<Result<PortalJson>> =>
      callRoute(patchOne, { method: "PATCH", path: `/api/v1/portals/${portalId}`, token, body, params: { portalId } }),
    setWorkflow: (portalId: string, body: unknown, headers?: Record<string, string>): Promise<Result<PortalJson>> =>
      callRoute(postWorkflow, { method: "POST", path: `/api/v1/portals/${portalId}/workflow`, token, body, headers, params: { portalId } }),
  };
}
