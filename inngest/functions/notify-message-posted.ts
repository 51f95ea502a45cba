import { events, inngest } from "@/inngest/client";
import { env } from "@/lib/env";
import { flushNotices, offerNotice } from "@/lib/notifications/batch";
import { messagePostedNotices } from "@/lib/notifications/message-posted";

/**
 * Emails the other side of a portal's thread about a new message (lib/notifications/message-posted.ts),
 * as each chose for "messages": held for the batch window and sent as one email per person for
 * every message meanwhile (lib/notifications/batch.ts), kept for their digest, or nothing.
 */
export const notifyMessagePosted = inngest.createFunction(
  { id: "notify-message-posted", triggers: [events["message.posted"]], retries: 5 },
  async ({ event, step }) => {
    const d = events["message.posted"].schema.parse(event.data);
    const portalId = d.portal_id;
    if (!portalId) return { held: 0 };
    const notices = await step.run("plan", () => messagePostedNotices({ orgId: d.org_id, portalId, messageId: d.message_id }));
    const held: string[] = [];
    for (const notice of notices) {
      if ((await step.run(`offer-${notice.userId}`, () => offerNotice(notice, "messages"))) === "held") held.push(notice.userId);
    }
    if (held.length === 0) return { held: 0 };
    const window = env().NOTIFY_BATCH_SECONDS;
    if (window > 0) await step.sleep("batch-window", `${window}s`);
    for (const userId of held) {
      await step.run(`flush-${userId}`, () => flushNotices({ userId, orgId: d.org_id, kind: "messages" }));
    }
    return { held: held.length };
  },
);
