import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { purgeWebhookDeliveries } from "@/lib/webhooks/purge-deliveries";

/** Daily: the webhook delivery log keeps 30 days. */
export const webhookDeliveriesPurge = inngest.createFunction(
  { id: "webhook-deliveries-purge", triggers: [cron("37 3 * * *")], singleton: { mode: "skip" } },
  async ({ step }) => step.run("purge", () => purgeWebhookDeliveries()),
);
