import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command } from "@aws-sdk/client-s3";
import { afterEach, expect } from "vitest";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { completeUpload } from "@/lib/files/complete-upload";
import { startUpload } from "@/lib/files/start-upload";
import { bucket, s3 } from "@/lib/storage/s3";

// A look into the bucket, and folder rows, for integration tests.

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

/** A folder entry written directly. */
export async function createTestFolder(options: { orgId: string; portalId: string; name?: string; parentId?: string | null }) {
  return db.fileEntry.create({
    data: {
      orgId: options.orgId,
      portalId: options.portalId,
      isFolder: true,
      name: options.name ?? "Folder",
      parentId: options.parentId ?? null,
      registeredAt: new Date(),
    },
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

/** A two-step upload by the viewer, linked to a task: the ticket, the PUT to storage, the completion. */
export async function uploadForTask(viewer: Viewer, portalId: string, taskId: string, name: string) {
  const ticket = await startUpload({ viewer, portalId, filename: name, contentType: "text/plain", taskId });
  expect((await fetch(ticket.uploadUrl, { method: "PUT", body: `bytes of ${name}`, headers: { "content-type": "text/plain" } })).ok).toBe(true);
  return completeUpload({ viewer, portalId, fileId: ticket.fileId, filename: name });
}
