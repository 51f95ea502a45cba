import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { apiBookkeepingPurge } from "@/inngest/functions/api-bookkeeping-purge";
import { db } from "@/lib/db";
import { createApiContext } from "@/lib/test-support/fixtures";

describe("api-bookkeeping-purge", () => {
  it("runs daily and removes expired idempotency records, keeping live ones", async () => {
    const config = apiBookkeepingPurge["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]).toMatchObject({ triggers: [{ cron: "17 3 * * *" }] });

    const { client } = await createApiContext();
    const base = { clientId: client.id, method: "POST", path: "/api/v1/portals", requestHash: "h" };
    await db.idempotencyRecord.createMany({
      data: [
        { ...base, key: "old", expiresAt: new Date(Date.now() - 1000) },
        { ...base, key: "live", expiresAt: new Date(Date.now() + 3_600_000) },
      ],
    });

    const { result } = await new InngestTestEngine({ function: apiBookkeepingPurge }).execute();
    expect(result).toMatchObject({ idempotencyRecords: expect.any(Number) });
    const keys = (await db.idempotencyRecord.findMany({ where: { clientId: client.id } })).map((r) => r.key);
    expect(keys).toEqual(["live"]);
  });
});
