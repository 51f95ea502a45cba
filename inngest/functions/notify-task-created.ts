import { events, inngest, routedTrigger } from "@/inngest/client";
import { env } from "@/lib/env";
import { flushNotices, offerNotice } from "@/lib/notifications/batch";
import { taskCreatedNotices } from "@/lib/notifications/task-created";

/**
 * Emails the clients a new task is for (lib/notifications/task-created.ts), as each chose for
 * "requests": held for the batch window, then one email per client for every request created for
 * them meanwhile (lib/notifications/batch.ts); or kept for their digest; or nothing.
 */
export const notifyTaskCreated = inngest.createFunction(
  // Only for tasks of a portal with a client (the relay's `clients` route): no run otherwise.
  { id: "notify-task-created", triggers: [routedTrigger("task.created", "clients")], retries: 5 },
  async ({ event, step }) => {
    const d = events["task.created"].schema.parse(event.data);
    const portalId = d.portal_id;
    if (!portalId) return { held: 0 };
    const notices = await step.run("plan", () => taskCreatedNotices({ orgId: d.org_id, portalId, taskId: d.task_id }));
    const held: string[] = [];
    for (const notice of notices) {
      if ((await step.run(`offer-${notice.userId}`, () => offerNotice(notice, "requests"))) === "held") held.push(notice.userId);
    }
    if (held.length === 0) return { held: 0 };
    const window = env().NOTIFY_BATCH_SECONDS;
    if (window > 0) await step.sleep("batch-window", `${window}s`);
    for (const userId of held) {
      await step.run(`flush-${userId}`, () => flushNotices({ userId, orgId: d.org_id, kind: "requests" }));
    }
    return { held: held.length };
  },
);
