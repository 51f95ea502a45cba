import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterEach } from "vitest";
import type { z } from "zod";
import { POST as postComplete } from "@/app/api/v1/portals/[portalId]/files/complete/route";
import { GET as getList, POST as postUpload } from "@/app/api/v1/portals/[portalId]/files/route";
import { callRoute, type CallResult } from "@/lib/api/test-support/call-route";
import { db } from "@/lib/db";
import { bucket, s3 } from "@/lib/storage/s3";
import type { FileSchema } from "../schemas";

// The file endpoints as an API client calls them, and a look into the bucket, for integration tests.

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

/** Keys of the organization's objects in the bucket. */
export async function objectKeys(orgId: string): Promise<string[]> {
  const res = await s3().send(new ListObjectsV2Command({ Bucket: bucket(), Prefix: `orgs/${orgId}/` }));
  return (res.Contents ?? []).map((o) => o.Key ?? "").sort();
}

export async function objectBytes(key: string): Promise<Buffer> {
  const res = await s3().send(new GetObjectCommand({ Bucket: bucket(), Key: key }));
  return Buffer.from(await res.Body!.transformToByteArray());
}

/** Removes the organization's objects (large test bodies should not pile up in the bucket). */
export async function removeObjects(orgId: string): Promise<void> {
  const keys = await objectKeys(orgId);
  if (keys.length > 0) await s3().send(new DeleteObjectsCommand({ Bucket: bucket(), Delete: { Objects: keys.map((Key) => ({ Key })) } }));
}

export const fileUploadedEvents = (orgId: string) =>
  db.event.findMany({ where: { orgId, type: "file.uploaded" }, orderBy: { createdAt: "asc" } });

/** A folder entry written directly. */
export async function createTestFolder(options: { orgId: string; portalId: string; name?: string; parentId?: string | null }) {
  return db.fileEntry.create({
    data: { orgId: options.orgId, portalId: options.portalId, isFolder: true, name: options.name ?? "Folder", parentId: options.parentId ?? null, registeredAt: new Date() },
  });
}

/** Registers an afterEach that removes the objects of every organization passed to the returned function. */
export function removeObjectsAfterEach(): (orgId: string) => void {
  const orgs: string[] = [];
  afterEach(async () => {
    await Promise.all(orgs.splice(0).map(removeObjects));
  });
  return (orgId) => void orgs.push(orgId);
}
