import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg } from "@/lib/test-support/fixtures";
import { webhookDeliveryFailed } from "./webhook-delivery-failed";

describe("webhook-delivery-failed", () => {
  it("listens for webhook-delivery runs the engine gave up on", () => {
    const config = webhookDeliveryFailed["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]?.triggers).toEqual([{ event: "inngest/function.failed", expression: "event.data.function_id == 'client-portals-webhook-delivery'" }]);
  });

  it("ends the delivery as failed and counts it, once", async () => {
    const org = await createTestOrg();
    const webhook = await db.webhook.create({ data: { orgId: org.id, url: "https://hooks.test/", events: ["guest.invited"], secretEncrypted: "x" } });
    const delivery = await db.webhookDelivery.create({ data: { webhookId: webhook.id, eventType: "guest.invited", attemptCount: 2 } });
    const failed = {
      name: "inngest/function.failed",
      data: {
        function_id: "client-portals-webhook-delivery",
        run_id: "01J0000000000000000000000",
        error: { name: "Error", message: "database unreachable" },
        event: { name: "webhook/delivery.requested", data: { delivery_id: delivery.id, webhook_id: webhook.id, first_attempt: 1 } },
      },
    };

    expect((await new InngestTestEngine({ function: webhookDeliveryFailed, events: [failed] }).execute()).result).toEqual({ ended: true });
    expect((await new InngestTestEngine({ function: webhookDeliveryFailed, events: [failed] }).execute()).result).toEqual({ ended: false });

    expect(await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ status: "failed", completedAt: expect.any(Date) });
    expect((await db.webhook.findUniqueOrThrow({ where: { id: webhook.id } })).failureCount).toBe(1);
  });
});
