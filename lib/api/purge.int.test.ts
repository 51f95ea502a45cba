import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createApiContext } from "@/lib/test-support/fixtures";
import { purgeApiBookkeeping } from "./purge";
import { utcDay } from "./rate-limit";

describe("purgeApiBookkeeping", () => {
  it("deletes expired idempotency records and counters older than yesterday, and keeps the rest", async () => {
    const { client } = await createApiContext();
    const now = new Date();
    const base = { clientId: client.id, method: "POST", path: "/api/v1/x", requestHash: "h" };
    await db.idempotencyRecord.createMany({
      data: [
        { ...base, key: "old", expiresAt: new Date(now.getTime() - 1000) },
        { ...base, key: "live", expiresAt: new Date(now.getTime() + 60_000) },
      ],
    });
    const day = (offset: number) => new Date(utcDay(now).getTime() + offset * 86_400_000);
    await db.rateLimitCounter.createMany({
      data: [-3, -2, -1, 0].map((offset) => ({ clientId: client.id, day: day(offset), count: 5 })),
    });

    await purgeApiBookkeeping(now);

    expect((await db.idempotencyRecord.findMany({ where: { clientId: client.id } })).map((r) => r.key)).toEqual(["live"]);
    const days = await db.rateLimitCounter.findMany({ where: { clientId: client.id }, orderBy: { day: "asc" } });
    expect(days.map((d) => d.day.toISOString())).toEqual([day(-1), day(0)].map((d) => d.toISOString()));
  });
});
