import { PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { objectKeys, removeObjects } from "@/lib/test-support/storage";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createForeignAdmin, outcomeOf } from "@/lib/test-support/outcome";
import { deletePortal } from "./delete-portal";
import { updatePortal } from "./update-portal";

// Permanent portal deletion (web, admins): objects and rows gone, external ids freed, an
// organization-level audit row kept.

describe("deletePortal", () => {
  it("removes the portal's objects and rows, frees its external ids and keeps an organization-level audit row", async () => {
    const org = await createTestOrg();
    const admin = await createTestUser({ orgId: org.id, role: "admin" });
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const viewer = await getUserViewer(admin.id, org.id);
    const portal = await createTestPortal({ orgId: org.id, name: "Müller GmbH" });
    const keep = await createTestPortal({ orgId: org.id, name: "Keep" });
    await updatePortal({ viewer, portalId: portal.id, externalSystemIds: { datev: "10001" } });
    const object = async (portalId: string, extra: { status?: "pending"; deletedAt?: Date } = {}) => {
      const id = crypto.randomUUID();
      const storageKey = fileStorageKey(org.id, id);
      await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: "bytes" }));
      await db.fileEntry.create({ data: { id, orgId: org.id, portalId, name: `${id}.txt`, storageKey, registeredAt: new Date(), ...extra } });
      return storageKey;
    };
    await object(portal.id);
    await object(portal.id, { status: "pending" });
    await object(portal.id, { deletedAt: new Date() });
    const kept = await object(keep.id);
    await db.task.create({ data: { orgId: org.id, portalId: portal.id, title: "T" } });
    await db.portalGuest.create({ data: { orgId: org.id, portalId: portal.id, userId: member.id, permissions: {} } });

    // Not confirmed, or not an admin: nothing happens.
    expect(await outcomeOf(deletePortal({ viewer, portalId: portal.id, confirmName: "müller gmbh" }))).toBe(
      `invalid_request: confirmName: Type the portal's name exactly as shown ("Müller GmbH") to delete it`,
    );
    expect(await outcomeOf(deletePortal({ viewer: await getUserViewer(member.id, org.id), portalId: portal.id, confirmName: "Müller GmbH" }))).toBe(
      "forbidden: This needs the admin role",
    );
    const foreign = await createForeignAdmin();
    expect(await outcomeOf(deletePortal({ viewer: foreign, portalId: portal.id, confirmName: "Müller GmbH" }))).toBe("not_found: Portal not found");
    expect((await objectKeys(org.id)).length).toBe(4);
    // The pair is taken while the portal exists.
    expect(await outcomeOf(updatePortal({ viewer, portalId: keep.id, externalSystemIds: { datev: "10001" } }))).toMatch(/^conflict/);

    expect(await deletePortal({ viewer, portalId: portal.id, confirmName: "Müller GmbH" })).toEqual({ portalId: portal.id, name: "Müller GmbH", objects: 3 });
    expect(await objectKeys(org.id)).toEqual([kept]);
    expect(await db.portal.findUnique({ where: { id: portal.id } })).toBeNull();
    expect(await db.fileEntry.count({ where: { portalId: portal.id } })).toBe(0);
    expect(await db.task.count({ where: { portalId: portal.id } })).toBe(0);
    expect(await db.portalGuest.count({ where: { portalId: portal.id } })).toBe(0);
    expect(await outcomeOf(updatePortal({ viewer, portalId: keep.id, externalSystemIds: { datev: "10001" } }))).toBe("ok");
    const row = await db.auditLog.findFirst({ where: { orgId: org.id, action: "portal.deleted" } });
    expect(row).toMatchObject({
      portalId: null,
      actorUserId: admin.id,
      targetType: "portal",
      targetId: portal.id,
      metadata: { portalId: portal.id, name: "Müller GmbH", objects: 3 },
    });
    // The portal's earlier audit rows stay, detached from it.
    expect(await db.auditLog.count({ where: { orgId: org.id, targetId: portal.id, action: "portal.external_ids_changed" } })).toBe(1);
    expect(await outcomeOf(deletePortal({ viewer, portalId: portal.id, confirmName: "Müller GmbH" }))).toBe("not_found: Portal not found");
    await removeObjects(org.id);
  });
});
