import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { purgeApiBookkeeping } from "@/lib/api/purge";

/** Daily: expired Idempotency-Key records and old rate-limit counters (D6, D7). */
export const apiBookkeepingPurge = inngest.createFunction(
  { id: "api-bookkeeping-purge", triggers: [cron("17 3 * * *")], singleton: { mode: "skip" } },
  async ({ step }) => step.run("purge", () => purgeApiBookkeeping()),
);
