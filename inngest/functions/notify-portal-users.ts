import { events, inngest } from "@/inngest/client";
import { env } from "@/lib/env";
import { flushNotices } from "@/lib/notifications/batch";
import { fileUploadedNotification, sendNotification, taskCompletedNotification, type PlannedNotification } from "@/lib/notifications/notify";

/**
 * Emails portal users about an upload or a completed task, per their notification settings
 * (lib/notifications/recipients.ts). One step plans the message and its recipients; one step per
 * recipient sends (or, for an upload, holds its copy; after the batch window one step per held
 * recipient sends what they were held, lib/notifications/batch.ts), so a retry never sends a copy
 * twice once its step finished.
 */
export const notifyPortalUsers = inngest.createFunction(
  { id: "notify-portal-users", triggers: [events["file.uploaded"], events["task.completed"]], retries: 5 },
  async ({ event, step }) => {
    const planned = await step.run("plan", async (): Promise<PlannedNotification | null> => {
      const portalId = event.data.portal_id;
      if (!portalId) return null;
      if (event.name === "file.uploaded") {
        const d = events["file.uploaded"].schema.parse(event.data);
        return fileUploadedNotification({
          orgId: d.org_id,
          portalId,
          fileId: d.file_id,
          fileName: d.name,
          uploadedBy: d.uploaded_by,
          uploaderName: d.uploaded_by_name,
          uploaderEmail: d.uploaded_by_email,
        });
      }
      const d = events["task.completed"].schema.parse(event.data);
      return taskCompletedNotification({ orgId: d.org_id, portalId, taskId: d.task_id });
    });
    if (!planned) return { notified: 0 };
    const held: string[] = [];
    for (const recipient of planned.recipients) {
      const outcome = await step.run(`notify-${recipient.userId}`, () => sendNotification(planned.notification, recipient));
      if ("held" in outcome) held.push(recipient.userId);
    }
    // Uploads wait for the batch window: several files for one person go out as one email.
    if (held.length > 0) {
      const window = env().NOTIFY_BATCH_SECONDS;
      if (window > 0) await step.sleep("batch-window", `${window}s`);
      for (const userId of held) {
        await step.run(`flush-${userId}`, () => flushNotices({ userId, orgId: planned.notification.orgId, kind: "uploads" }));
      }
    }
    return { notified: planned.recipients.length };
  },
);
