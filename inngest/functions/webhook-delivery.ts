import { inngest } from "@/inngest/client";
import { webhookDeliveryRequested } from "@/inngest/events/webhook-delivery";
import { attemptDelivery } from "@/lib/webhooks/attempt-delivery";
import { MAX_ATTEMPTS, retryDelaySeconds } from "@/lib/webhooks/config";

/**
 * One delivery's attempt series (D20), as an explicit loop: `attempt-1`, then on failure
 * `sleep-1` (base), `attempt-2`, `sleep-2` (4×base), `attempt-3`, `sleep-3` (16×base),
 * `attempt-4`. Each attempt checks that the webhook still exists and is enabled, and ends the
 * delivery itself on success or after the last one. Receiver failures are outcomes, not errors;
 * the engine's retries cover infrastructure faults only (a database error inside a step).
 * At most a few attempts per webhook at a time, so one slow receiver holds up only itself.
 */
export const webhookDelivery = inngest.createFunction(
  {
    id: "webhook-delivery",
    triggers: [webhookDeliveryRequested],
    concurrency: { key: "event.data.webhook_id", limit: 5 },
    retries: 5,
  },
  async ({ event, step }) => {
    const { delivery_id: deliveryId, first_attempt: first } = event.data;
    for (let n = 1; n <= MAX_ATTEMPTS; n++) {
      const result = await step.run(`attempt-${n}`, () => attemptDelivery({ deliveryId, number: first + n - 1, last: n === MAX_ATTEMPTS }));
      if (result.outcome !== "retry") return result;
      await step.sleep(`sleep-${n}`, `${retryDelaySeconds(n)}s`);
    }
    // Not reached: the last attempt never answers "retry".
    return { outcome: "failed" as const };
  },
);
