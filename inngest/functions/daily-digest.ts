import { cron } from "inngest";
import { inngest } from "@/inngest/client";
import { sendDigest, usersWithPendingDigest } from "@/lib/notifications/digest";

/**
 * Daily at 07:00 UTC: every user with notifications set to "daily digest" gets one message with
 * what was kept for them. One step per user, so a retry never mails a digest twice.
 */
export const dailyDigest = inngest.createFunction({ id: "daily-digest", triggers: [cron("0 7 * * *")], singleton: { mode: "skip" } }, async ({ step }) => {
  const users = await step.run("users", () => usersWithPendingDigest());
  let items = 0;
  for (const userId of users) items += (await step.run(`digest-${userId}`, () => sendDigest(userId))).items;
  return { users: users.length, items };
});
