import { randomUUID } from "node:crypto";
import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { bulkRequest } from "@/inngest/functions/bulk-request";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { getBulkRequest } from "@/lib/requests/bulk-progress";
import { createBulkRequest } from "@/lib/requests/create-bulk-request";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";

// The bulk request job: batches until no portal is pending, then finished; a repeated run sends nothing.

async function context() {
  const org = await createTestOrg({ plan: "business" });
  const member = await createTestUser({ orgId: org.id, role: "member" });
  return { org, viewer: await getUserViewer(member.id, org.id) };
}

async function taggedPortals(orgId: string, tag: string, count: number) {
  const portals = [];
  for (let i = 0; i < count; i++) {
    const portal = await createTestPortal({ orgId, tags: [tag] });
    await createTestGuest({ orgId, portalId: portal.id });
    portals.push(portal);
  }
  return portals;
}

describe("bulk-request", () => {
  it("runs as a job of batches and finishes; portals without guests are skipped with the reason", async () => {
    const { org, viewer } = await context();
    const tag = `t-${randomUUID().slice(0, 8)}`;
    const portals = await taggedPortals(org.id, tag, 3);
    const empty = await createTestPortal({ orgId: org.id, name: "No guests", tags: [tag] });
    const { bulkRequestId } = await createBulkRequest({
      viewer,
      idempotencyKey: randomUUID(),
      target: { filter: { tag } },
      spec: { title: "Quick question", action_type: "Question?" },
    });
    const event = { name: "bulk-request/send.requested", data: { bulk_request_id: bulkRequestId, org_id: org.id } };
    const { result } = await new InngestTestEngine({ function: bulkRequest, events: [event] }).execute();
    expect(result).toEqual({ processed: 4, status: "completed" });
    const progress = await getBulkRequest({ viewer, bulkRequestId });
    expect(progress.status).toBe("completed");
    expect(progress.finishedAt).not.toBeNull();
    expect(progress.counts).toMatchObject({ total: 4, sent: 3, skipped: 1, failed: 0, pending: 0 });
    // Listed first: what needs a look comes before what was sent.
    expect(progress.items[0]).toMatchObject({ portalId: empty.id, status: "skipped", reason: "no_guests", taskId: null });
    expect(await db.task.count({ where: { orgId: org.id, portalId: { in: portals.map((p) => p.id) }, actionType: "Question" } })).toBe(3);
    // The job run again (a redelivered event): nothing new.
    const rerun = await new InngestTestEngine({ function: bulkRequest, events: [event] }).execute();
    expect(rerun.result).toEqual({ processed: 0, status: "completed" });
    expect(await db.task.count({ where: { orgId: org.id } })).toBe(3);
  });
});
