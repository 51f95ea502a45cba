import { inngest } from "@/inngest/client";
import { emailQueued } from "@/inngest/events/email";
import { deliverEmail } from "@/lib/email/deliver-email";

/** Waits between SMTP attempts: the server may be restarting or greylisting. */
const EMAIL_RETRY_DELAYS = ["1m", "5m", "30m"] as const;
const EMAIL_MAX_ATTEMPTS = EMAIL_RETRY_DELAYS.length + 1;

/**
 * Sends one queued email: `attempt-1` … `attempt-4` with `sleep-1` … `sleep-3` between them, an
 * explicit loop so that SMTP failures are visible per attempt and testable; the last failure
 * marks the message `failed`. The engine's own retries cover infrastructure faults (a database
 * error inside a step); an attempt after a recorded send is skipped.
 */
export const sendEmailFunction = inngest.createFunction({ id: "send-email", triggers: [emailQueued], retries: 3 }, async ({ event, step }) => {
  const emailId = event.data.email_id;
  for (let n = 1; n <= EMAIL_MAX_ATTEMPTS; n++) {
    const outcome = await step.run(`attempt-${n}`, () => deliverEmail({ emailId, final: n === EMAIL_MAX_ATTEMPTS }));
    if (outcome !== "retry") return { outcome, attempts: n };
    await step.sleep(`sleep-${n}`, EMAIL_RETRY_DELAYS[n - 1]!);
  }
  return { outcome: "failed" as const, attempts: EMAIL_MAX_ATTEMPTS };
});
