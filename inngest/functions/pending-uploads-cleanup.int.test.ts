import { PutObjectCommand } from "@aws-sdk/client-s3";
import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { cleanupPendingUploads } from "@/lib/files/cleanup-pending";
import { objectKeys, removeObjects } from "@/lib/test-support/storage";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { createTestOrg, createTestPortal } from "@/lib/test-support/fixtures";
import { pendingUploadsCleanup } from "./pending-uploads-cleanup";

const HOUR = 3600 * 1000;

describe("pending-uploads-cleanup", () => {
  it("runs nightly", () => {
    const config = pendingUploadsCleanup["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]).toMatchObject({ triggers: [{ cron: "17 2 * * *" }] });
  });

  it("removes pending uploads older than a day with their objects, and keeps recent pending and registered files", async () => {
    const org = await createTestOrg();
    const portal = await createTestPortal({ orgId: org.id });
    const make = async (status: "pending" | "registered", ageHours: number, withObject: boolean) => {
      const id = crypto.randomUUID();
      const storageKey = fileStorageKey(org.id, id);
      const createdAt = new Date(Date.now() - ageHours * HOUR);
      await db.fileEntry.create({
        data: {
          id,
          orgId: org.id,
          portalId: portal.id,
          name: `${status}-${ageHours}.bin`,
          status,
          storageKey,
          createdAt,
          pendingExpiresAt: status === "pending" ? new Date(createdAt.getTime() + HOUR) : null,
          registeredAt: status === "registered" ? createdAt : null,
        },
      });
      if (withObject) await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: "bytes" }));
      return storageKey;
    };
    await make("pending", 25, true); // PUT done, never completed
    await make("pending", 48, false); // never uploaded
    const recent = await make("pending", 2, true); // expired, but not a day old yet
    const registered = await make("registered", 72, true);

    const { result } = await new InngestTestEngine({ function: pendingUploadsCleanup }).execute();
    expect(result).toMatchObject({ removed: expect.any(Number) });

    expect((await db.fileEntry.findMany({ where: { orgId: org.id } })).map((f) => f.storageKey).sort()).toEqual([recent, registered].sort());
    expect(await objectKeys(org.id)).toEqual([recent, registered].sort());
    expect(await cleanupPendingUploads()).toEqual({ removed: 0 });
    await removeObjects(org.id);
  });
});
