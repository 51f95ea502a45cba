import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/test-support/fixtures";
import { purgeWebhookDeliveries } from "@/lib/webhooks/purge-deliveries";
import { webhookDeliveriesPurge } from "./webhook-deliveries-purge";

const DAY = 24 * 3600 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

describe("webhook-deliveries-purge", () => {
  it("runs daily", () => {
    const config = webhookDeliveriesPurge["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]).toMatchObject({ triggers: [{ cron: "37 3 * * *" }] });
  });

  it("deletes deliveries finished more than 30 days ago with their attempts, and keeps the rest", async () => {
    const org = await createTestOrg();
    const hook = {
      webhook_id: (await db.webhook.create({ data: { orgId: org.id, url: "https://hooks.test/", events: ["guest.invited"], secretEncrypted: "x" } })).id,
    };
    const make = (createdAt: Date, completedAt: Date | null, status: "pending" | "succeeded" | "failed") =>
      db.webhookDelivery.create({ data: { webhookId: hook.webhook_id, eventType: "webhook.test", createdAt, completedAt, status } });
    const old = await make(ago(40), ago(31), "failed");
    await db.webhookAttempt.create({ data: { deliveryId: old.id, number: 1, startedAt: ago(31), durationMs: 5, success: false } });
    const recent = await make(ago(40), ago(29), "succeeded");
    await make(ago(31), null, "pending"); // stuck: never attempted for 30 days
    const running = await make(ago(31), null, "pending");
    await db.webhookAttempt.create({ data: { deliveryId: running.id, number: 5, startedAt: ago(0), durationMs: 5, success: false } });
    const fresh = await make(ago(0), null, "pending");

    const { result } = await new InngestTestEngine({ function: webhookDeliveriesPurge }).execute();
    expect(result).toMatchObject({ deliveries: expect.any(Number) });

    const left = (await db.webhookDelivery.findMany({ where: { webhookId: hook.webhook_id } })).map((d) => d.id).sort();
    expect(left).toEqual([recent.id, running.id, fresh.id].sort());
    expect(await db.webhookAttempt.count({ where: { deliveryId: old.id } })).toBe(0);
    expect(await purgeWebhookDeliveries()).toEqual({ deliveries: 0 });
  });
});
