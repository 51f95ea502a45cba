import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { dispatchPendingEvents } from "@/lib/events/dispatch-pending-events";

const BATCH = 100;
const MAX_BATCHES = 20;

/**
 * Second safety net for the outbox (D22): every minute, hand over whatever the in-process relay
 * has not (it is not running, e.g. on a serverless host, or it stopped). Both may run at once;
 * the claim skips rows the other holds. No engine retries: the next minute is the retry.
 */
export const eventsRelaySweep = inngest.createFunction(
  {
    id: "events-relay-sweep",
    triggers: [cron("* * * * *")],
    singleton: { mode: "skip" },
    retries: 0,
  },
  async ({ step }) => {
    let sent = 0;
    let failed = 0;
    // One step per batch, so a long backlog is drained in checkpointed pieces.
    for (let i = 0; i < MAX_BATCHES; i++) {
      const r = await step.run(`dispatch-${i}`, () => dispatchPendingEvents({ limit: BATCH }));
      sent += r.sent;
      failed += r.failed;
      if (r.failed > 0 || r.sent < BATCH) break;
    }
    return { sent, failed };
  },
);
