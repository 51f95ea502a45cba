import { events, inngest } from "@/inngest/client";
import { systemViewer } from "@/lib/access/viewer";
import { finishBulkRequest, sendBulkBatch } from "@/lib/requests/send-bulk-batch";

/**
 * Sends a bulk request to its portals (docs/requests.md): batch after batch (`send-<n>`, up to
 * BULK_BATCH_SIZE portals each) until none is pending, then `finish`. Each portal's task and its
 * item commit together (lib/requests/send-bulk-batch.ts), so a retried step or a repeated run
 * skips what was sent; a cancellation leaves no pending portal and the loop ends.
 */
export const bulkRequest = inngest.createFunction(
  { id: "bulk-request", triggers: [events["bulk-request/send.requested"]], concurrency: { key: "event.data.bulk_request_id", limit: 1 }, retries: 5 },
  async ({ event, step }) => {
    const { bulk_request_id: bulkRequestId, org_id: orgId } = event.data;
    const viewer = systemViewer(orgId);
    let sent = 0;
    for (let n = 1; ; n++) {
      const batch = await step.run(`send-${n}`, () => sendBulkBatch({ viewer, bulkRequestId }));
      sent += batch.processed;
      if (batch.remaining === 0 || batch.processed === 0) break;
    }
    const finished = await step.run("finish", () => finishBulkRequest({ viewer, bulkRequestId }));
    return { processed: sent, status: finished.status };
  },
);
