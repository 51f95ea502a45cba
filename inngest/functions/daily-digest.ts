import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { sendDigest, usersWithPendingDigest } from "@/lib/notifications/digest";

/**
 * Hourly, so that every user with notifications set to "daily digest" gets one message with what
 * was kept for them at 07:00 in their zone (lib/notifications/digest.ts). The run's hour is its
 * event's time, so a retried step picks the same users. One step per user, so a retry never mails
 * a digest twice.
 */
export const dailyDigest = inngest.createFunction(
  { id: "daily-digest", triggers: [cron("0 * * * *")], singleton: { mode: "skip" } },
  async ({ event, step }) => {
    const at = new Date(event.ts ?? Date.now());
    const users = await step.run("users", () => usersWithPendingDigest(at));
    let items = 0;
    for (const userId of users) items += (await step.run(`digest-${userId}`, () => sendDigest(userId))).items;
    return { users: users.length, items };
  },
);
