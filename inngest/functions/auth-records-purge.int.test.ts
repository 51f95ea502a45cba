import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { authRecordsPurge } from "@/inngest/functions/auth-records-purge";
import { db } from "@/lib/db";
import { createTestUser } from "@/lib/test-support/fixtures";

describe("auth-records-purge", () => {
  it("runs daily and removes stale throttle rows and ended sessions, keeping those still in force", async () => {
    const config = authRecordsPurge["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]).toMatchObject({ triggers: [{ cron: "23 3 * * *" }] });

    const tag = crypto.randomUUID();
    const old = new Date(Date.now() - 2 * 86_400_000);
    await db.authThrottle.createMany({
      data: [
        { key: `password:ip:stale-${tag}`, count: 3, windowStartedAt: old },
        { key: `password:ip:locked-${tag}`, count: 100, windowStartedAt: old, lockedUntil: new Date(Date.now() + 60_000) },
        { key: `password:ip:fresh-${tag}`, count: 1, windowStartedAt: new Date() },
      ],
    });
    const user = await createTestUser();
    const [revoked, live] = await Promise.all([
      db.userSession.create({ data: { userId: user.id, revokedAt: old } }),
      db.userSession.create({ data: { userId: user.id } }),
    ]);

    await new InngestTestEngine({ function: authRecordsPurge }).execute();
    const keys = (await db.authThrottle.findMany({ where: { key: { contains: tag } } })).map((r) => r.key).sort();
    expect(keys).toEqual([`password:ip:fresh-${tag}`, `password:ip:locked-${tag}`]);
    expect((await db.userSession.findMany({ where: { userId: user.id } })).map((s) => s.id)).toEqual([live.id]);
    expect(revoked.id).not.toBe(live.id);
  });
});
