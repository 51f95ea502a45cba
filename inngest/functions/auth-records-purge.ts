import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { purgeExpiredChallenges } from "@/lib/auth/passkeys";
import { purgeStaleThrottles } from "@/lib/auth/throttle";
import { purgeEndedSessions } from "@/lib/auth/user-sessions";

/** Daily: sign-in throttle rows that hold nothing back, web sessions ended more than a day ago, and expired passkey challenges. */
export const authRecordsPurge = inngest.createFunction(
  { id: "auth-records-purge", triggers: [cron("23 3 * * *")], singleton: { mode: "skip" } },
  async ({ step }) => ({
    throttles: await step.run("throttles", () => purgeStaleThrottles()),
    sessions: await step.run("sessions", () => purgeEndedSessions()),
    passkeyChallenges: await step.run("passkey-challenges", () => purgeExpiredChallenges()),
  }),
);
