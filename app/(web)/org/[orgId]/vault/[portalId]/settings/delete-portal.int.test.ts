import { createServer } from "node:net";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { bucket, fileStorageKey, resetS3ClientForTests, s3 } from "@/lib/storage/s3";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { objectKeys } from "@/lib/test-support/storage";
import { deletePortalAction } from "../portal-actions";

// Permanent delete from the settings tab, through the web action: a storage that cannot be
// reached leaves the portal whole (rows and objects) with an error that says to retry; once the
// storage is back the same action removes both. The real local S3 is made unreachable by
// pointing the client at a closed port for that one call.

const session = vi.hoisted(() => ({ user: { id: "", email: "admin@example.com", name: "Admin" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => session.user, requireUser: async () => session.user }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const realEndpoint = process.env.S3_ENDPOINT;

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function useStorage(endpoint: string | undefined) {
  process.env.S3_ENDPOINT = endpoint;
  resetEnvForTests();
  resetS3ClientForTests();
}

afterEach(() => useStorage(realEndpoint));

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

describe("permanent delete from the settings tab", () => {
  it("keeps the portal when the storage is unreachable, and deletes rows and objects once it answers", async () => {
    const org = await createTestOrg();
    const admin = await createTestUser({ orgId: org.id, role: "admin" });
    session.user.id = admin.id;
    const portal = await createTestPortal({ orgId: org.id, name: "Doe & Sons" });
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const id = crypto.randomUUID();
      const storageKey = fileStorageKey(org.id, id);
      await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: `bytes ${i}` }));
      await db.fileEntry.create({ data: { id, orgId: org.id, portalId: portal.id, name: `f${i}.pdf`, storageKey, registeredAt: new Date() } });
      keys.push(storageKey);
    }
    await db.task.create({ data: { orgId: org.id, portalId: portal.id, title: "Still here" } });

    useStorage(`http://127.0.0.1:${await closedPort()}`);
    const failed = await deletePortalAction(org.id, {}, form({ portalId: portal.id, confirmName: "Doe & Sons" }));
    expect(failed).toEqual({ error: "The file storage did not answer in time; retry later" });
    useStorage(realEndpoint);

    expect(await db.portal.findUnique({ where: { id: portal.id }, select: { name: true, deletedAt: true } })).toEqual({ name: "Doe & Sons", deletedAt: null });
    expect(await db.fileEntry.count({ where: { portalId: portal.id } })).toBe(2);
    expect(await db.task.count({ where: { portalId: portal.id } })).toBe(1);
    expect((await objectKeys(org.id)).sort()).toEqual([...keys].sort());
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "portal.deleted" } })).toBe(0);

    // A wrong name is refused before storage is touched.
    expect(await deletePortalAction(org.id, {}, form({ portalId: portal.id, confirmName: "doe & sons" }))).toEqual({
      error: expect.stringContaining("exactly as shown"),
    });

    const done = await deletePortalAction(org.id, {}, form({ portalId: portal.id, confirmName: "Doe & Sons" }));
    expect(done).toMatchObject({ done: expect.any(Number), message: `"Doe & Sons" was deleted with its 2 stored files` });
    expect(await objectKeys(org.id)).toEqual([]);
    expect(await db.portal.findUnique({ where: { id: portal.id } })).toBeNull();
    expect(await db.task.count({ where: { portalId: portal.id } })).toBe(0);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "portal.deleted", actorUserId: admin.id } })).toBe(1);
  });
});
