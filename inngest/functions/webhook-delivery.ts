import { inngest } from "@/inngest/client";
import { webhookDeliveryRequested } from "@/inngest/events/webhook-delivery";
import { attemptDeliveries, type AttemptOutcome } from "@/lib/webhooks/attempt-delivery";
import { MAX_ATTEMPTS, retryDelaySeconds } from "@/lib/webhooks/config";

/** Most deliveries of one webhook in one run. */
const DELIVERY_BATCH_SIZE = 50;
/**
 * Attempts of one run out at once, sent in waves (each wave once the last has been answered); with
 * two runs per webhook, at most ten reach a receiver together.
 */
const ATTEMPTS_IN_PARALLEL = 5;

type Series = { deliveryId: string; first: number };
type Attempted = Series & { result: AttemptOutcome };

/**
 * The attempt series of a webhook's deliveries (D20), as an explicit loop over the deliveries
 * still to retry: `attempt-1`, then for the failed ones `sleep-1` (base), `attempt-2`, `sleep-2`
 * (4×base), `attempt-3`, `sleep-3` (16×base), `attempt-4`. The engine gathers the delivery starts
 * of one webhook into a run (up to DELIVERY_BATCH_SIZE, waiting at most a second for more), so a
 * burst of events costs one run per batch instead of one per delivery; each delivery keeps its own
 * id, attempt numbers, signature per attempt, log and counter. Each attempt checks that the
 * webhook still exists and is enabled, and ends the delivery itself on success or after the last
 * one. Receiver failures are outcomes, not errors; the engine's retries cover infrastructure
 * faults only (a database error inside a step), and a retried step sends again only the attempts
 * it had not logged (attemptDeliveries). At most two runs per webhook at a time, so one slow
 * receiver holds up only itself.
 */
export const webhookDelivery = inngest.createFunction(
  {
    id: "webhook-delivery",
    triggers: [webhookDeliveryRequested],
    batchEvents: { maxSize: DELIVERY_BATCH_SIZE, timeout: "1s", key: "event.data.webhook_id" },
    concurrency: { key: "event.data.webhook_id", limit: 2 },
    retries: 5,
  },
  async ({ events, step }) => {
    const seen = new Set<string>();
    let pending: Series[] = [];
    for (const { data } of events) {
      const key = `${data.delivery_id}:${data.first_attempt}`;
      if (seen.has(key)) continue;
      seen.add(key);
      pending.push({ deliveryId: data.delivery_id, first: data.first_attempt });
    }
    const ended: Attempted[] = [];
    for (let n = 1; n <= MAX_ATTEMPTS && pending.length > 0; n++) {
      const last = n === MAX_ATTEMPTS;
      const attempted = await step.run(`attempt-${n}`, () => attemptAll(pending, n, last));
      ended.push(...attempted.filter((a) => a.result.outcome !== "retry"));
      pending = attempted.filter((a) => a.result.outcome === "retry").map(({ deliveryId, first }) => ({ deliveryId, first }));
      if (pending.length > 0 && !last) await step.sleep(`sleep-${n}`, `${retryDelaySeconds(n)}s`);
    }
    const outcomes = new Set(ended.map((a) => a.result.outcome));
    return {
      // The deliveries' common outcome, or "mixed".
      outcome: outcomes.size === 1 ? [...outcomes][0]! : "mixed",
      deliveries: ended.map((a) => ({ delivery_id: a.deliveryId, ...a.result })),
    };
  },
);

/** Attempt `n` of each series (attemptDeliveries: one read and one write for all of them). */
async function attemptAll(series: Series[], n: number, last: boolean): Promise<Attempted[]> {
  const outcomes = await attemptDeliveries(
    series.map((s) => ({ deliveryId: s.deliveryId, number: s.first + n - 1, last })),
    { parallel: ATTEMPTS_IN_PARALLEL },
  );
  return series.map((s, i) => ({ ...s, result: outcomes[i]! }));
}
