import type { z } from "zod";
import { POST as postComplete } from "@/app/api/v1/portals/[portalId]/files/complete/route";
import { GET as getList, POST as postUpload } from "@/app/api/v1/portals/[portalId]/files/route";
import { callRoute, type CallResult } from "@/test/routes/call-route";
import { db } from "@/lib/db";
import type { FileSchema } from "@/lib/files/schemas";

// The file endpoints as an API client calls them, for integration tests (the bucket and folder
// fixtures are in lib/test-support/storage.ts).

export type FileJson = z.output<typeof FileSchema>;
export type ErrorJson = { error: string; error_description: string };
type Result<T> = CallResult<T & Partial<ErrorJson>>;

export interface TicketJson {
  file_id: string;
  upload_url: string;
  expires_in: number;
  method: string;
  headers: Record<string, string>;
}

export interface UploadedJson {
  id: string;
  name: string;
  extension: string;
  size: number;
  created_date: string;
}

export function filesApi(token: string) {
  return {
    list: (portalId: string, query = ""): Promise<CallResult<FileJson[] & Partial<ErrorJson>>> =>
      callRoute(getList, { path: `/api/v1/portals/${portalId}/files${query}`, token, params: { portalId } }),
    upload: <T = TicketJson & UploadedJson>(portalId: string, body: unknown, headers?: Record<string, string>): Promise<Result<T>> =>
      callRoute(postUpload, { method: "POST", path: `/api/v1/portals/${portalId}/files`, token, body, headers, params: { portalId } }),
    complete: (portalId: string, body: unknown): Promise<Result<FileJson>> =>
      callRoute(postComplete, { method: "POST", path: `/api/v1/portals/${portalId}/files/complete`, token, body, params: { portalId } }),
  };
}

export const fileUploadedEvents = (orgId: string) => db.event.findMany({ where: { orgId, type: "file.uploaded" }, orderBy: { createdAt: "asc" } });
