import { randomUUID } from "node:crypto";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { getUserViewer, systemViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { cancelBulkRequest, getBulkRequest, listBulkRequests } from "./bulk-progress";
import { createBulkRequest } from "./create-bulk-request";
import { sendBulkBatch } from "./send-bulk-batch";

// Bulk requests against the real database: the tasks go through createTask (audit row, one
// task.created each), and each portal gets one task however often or however concurrently the
// job's batches run.

async function context() {
  const org = await createTestOrg({ plan: "business" });
  const member = await createTestUser({ orgId: org.id, role: "member", name: "Mia Member" });
  return { org, member, viewer: await getUserViewer(member.id, org.id), system: systemViewer(org.id) };
}

/** `count` portals tagged `tag`, each with one guest. */
async function taggedPortals(orgId: string, tag: string, count: number) {
  const portals = [];
  for (let i = 0; i < count; i++) {
    const portal = await createTestPortal({ orgId, name: `Client ${String(i).padStart(3, "0")}`, tags: [tag] });
    const guest = await createTestGuest({ orgId, portalId: portal.id });
    portals.push({ ...portal, guestId: guest.id });
  }
  return portals;
}

async function sendAll(orgId: string, bulkRequestId: string) {
  for (;;) {
    const [a, b] = await Promise.all([
      sendBulkBatch({ viewer: systemViewer(orgId), bulkRequestId, limit: 40 }),
      sendBulkBatch({ viewer: systemViewer(orgId), bulkRequestId, limit: 40 }),
    ]);
    if (a.remaining === 0 && b.remaining === 0) return;
  }
}

const appErrorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (isAppError(e) ? { code: e.code, message: e.message } : Promise.reject(e)),
  );

describe("bulk requests", () => {
  it("send one request to every portal of a tag filter once, however often the batches run, with one task.created and audit row per task", async () => {
    const { org, member, viewer } = await context();
    const tag = `tax-${randomUUID().slice(0, 8)}`;
    const portals = await taggedPortals(org.id, tag, 200);
    await createTestPortal({ orgId: org.id, name: "Untagged", tags: ["other"] });
    await createTestPortal({ orgId: org.id, name: "Template", tags: [tag], isTemplate: true });
    const key = randomUUID();
    const spec = {
      title: "Send your 2026 documents",
      description: "All of them",
      action_type: "File Request" as const,
      due: { kind: "relative" as const, days: 14 },
      send_reminder: true,
    };

    const first = await createBulkRequest({ viewer, idempotencyKey: key, target: { filter: { tag } }, spec });
    expect(first.created).toBe(true);
    // The same submission again: the same bulk request, nothing new recorded.
    const again = await createBulkRequest({ viewer, idempotencyKey: key, target: { filter: { tag } }, spec });
    expect(again).toEqual({ bulkRequestId: first.bulkRequestId, created: false });
    expect(await db.bulkRequest.count({ where: { orgId: org.id } })).toBe(1);
    expect(await db.event.count({ where: { orgId: org.id, type: "bulk-request/send.requested" } })).toBe(1);

    await sendAll(org.id, first.bulkRequestId);
    // A retried run finds nothing pending.
    expect(await sendBulkBatch({ viewer: systemViewer(org.id), bulkRequestId: first.bulkRequestId })).toEqual({ processed: 0, remaining: 0 });

    const tasks = await db.task.findMany({ where: { orgId: org.id }, include: { assignees: true } });
    expect(tasks).toHaveLength(200);
    expect(new Set(tasks.map((t) => t.portalId))).toEqual(new Set(portals.map((p) => p.id)));
    const bulk = await db.bulkRequest.findUniqueOrThrow({ where: { id: first.bulkRequestId } });
    const due = new Date(Date.UTC(bulk.sentAt.getUTCFullYear(), bulk.sentAt.getUTCMonth(), bulk.sentAt.getUTCDate() + 15) - 1000);
    for (const task of tasks) {
      const portal = portals.find((p) => p.id === task.portalId)!;
      expect(task).toMatchObject({
        title: "Send your 2026 documents",
        description: "All of them",
        actionType: "FileRequest",
        sendReminder: true,
        createdById: member.id,
      });
      expect(task.dueDate?.toISOString()).toBe(due.toISOString());
      expect(task.assignees.map((a) => [a.userId, a.type])).toEqual([[portal.guestId, "guest"]]);
    }
    const created = await db.event.findMany({ where: { orgId: org.id, type: "task.created" } });
    expect(created).toHaveLength(200);
    expect(new Set(created.map((e) => (e.data as { task_id: string }).task_id))).toEqual(new Set(tasks.map((t) => t.id)));
    expect(await db.event.count({ where: { orgId: org.id, type: "task.reminders_changed" } })).toBe(200);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "task.created", actorUserId: member.id } })).toBe(200);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "bulk_request.created" } })).toBe(1);

    const progress = await getBulkRequest({ viewer, bulkRequestId: first.bulkRequestId });
    expect(progress.counts).toEqual({ total: 200, pending: 0, sent: 200, skipped: 0, failed: 0 });
    expect(progress.items.every((i) => i.status === "sent" && tasks.some((t) => t.id === i.taskId))).toBe(true);
    const [listed] = await listBulkRequests({ viewer });
    expect(listed).toMatchObject({ id: first.bulkRequestId, title: "Send your 2026 documents", counts: { sent: 200 } });
  }, 120_000);

  it("can be cancelled part-way: what was sent stays, the rest is skipped as cancelled", async () => {
    const { org, viewer, system } = await context();
    const portals = await taggedPortals(org.id, "cancel-me", 12);
    const { bulkRequestId } = await createBulkRequest({
      viewer,
      idempotencyKey: randomUUID(),
      target: { portal_ids: portals.map((p) => p.id) },
      spec: { title: "Sign off", action_type: "General" },
    });
    expect(await sendBulkBatch({ viewer: system, bulkRequestId, limit: 5 })).toEqual({ processed: 5, remaining: 7 });
    expect(await cancelBulkRequest({ viewer, bulkRequestId })).toEqual({ status: "cancelled", cancelled: 7 });
    expect(await sendBulkBatch({ viewer: system, bulkRequestId })).toEqual({ processed: 0, remaining: 0 });
    const progress = await getBulkRequest({ viewer, bulkRequestId });
    expect(progress.status).toBe("cancelled");
    expect(progress.counts).toMatchObject({ sent: 5, skipped: 7, pending: 0 });
    expect(progress.items.filter((i) => i.reason === "cancelled")).toHaveLength(7);
    expect(await db.task.count({ where: { orgId: org.id } })).toBe(5);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "bulk_request.cancelled" } })).toBe(1);
    // Cancelling again changes nothing.
    expect(await cancelBulkRequest({ viewer, bulkRequestId })).toEqual({ status: "cancelled", cancelled: 0 });
  });

  it("sends form fields and a document to sign, the document copied into each portal", async () => {
    const { org, viewer, system } = await context();
    const portals = await taggedPortals(org.id, "forms", 2);
    const source = await createTestPortal({ orgId: org.id, name: "Documents", isTemplate: true });
    const doc = await PDFDocument.create();
    doc.addPage();
    const bytes = Buffer.from(await doc.save());
    const fileId = randomUUID();
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: fileStorageKey(org.id, fileId), Body: bytes, ContentType: "application/pdf" }));
    await db.fileEntry.create({
      data: {
        id: fileId,
        orgId: org.id,
        portalId: source.id,
        name: "engagement.pdf",
        extension: "pdf",
        contentType: "application/pdf",
        size: bytes.length,
        storageKey: fileStorageKey(org.id, fileId),
        registeredAt: new Date(),
      },
    });
    const target = { portal_ids: portals.map((p) => p.id) };
    const form = await createBulkRequest({
      viewer,
      idempotencyKey: randomUUID(),
      target,
      spec: {
        title: "Your details",
        action_type: "Fill Form",
        form_fields: [
          { label: "Tax id", kind: "text", required: true },
          { label: "Status", kind: "select", options: ["Single", "Married"] },
        ],
      },
    });
    const sign = await createBulkRequest({
      viewer,
      idempotencyKey: randomUUID(),
      target,
      spec: { title: "Sign the engagement letter", action_type: "Sign Document", document_file_id: fileId },
    });
    await sendBulkBatch({ viewer: system, bulkRequestId: form.bulkRequestId });
    await sendBulkBatch({ viewer: system, bulkRequestId: sign.bulkRequestId });
    for (const portal of portals) {
      const formTask = await db.task.findFirstOrThrow({
        where: { portalId: portal.id, actionType: "FillForm" },
        include: { formFields: { orderBy: { position: "asc" } } },
      });
      expect(formTask.formFields.map((f) => [f.label, f.kind, f.required, f.options])).toEqual([
        ["Tax id", "text", true, []],
        ["Status", "select", false, ["Single", "Married"]],
      ]);
      const signTask = await db.task.findFirstOrThrow({ where: { portalId: portal.id, actionType: "SignDocument" } });
      const copy = await db.fileEntry.findUniqueOrThrow({ where: { id: signTask.documentFileId! } });
      expect(copy).toMatchObject({ portalId: portal.id, name: "engagement.pdf", size: bytes.length });
      expect(copy.id).not.toBe(fileId);
    }
  });

  it("refuses bad requests with a message naming the field, and nothing is recorded", async () => {
    const { org, viewer } = await context();
    const [portal] = await taggedPortals(org.id, "bad", 1);
    const target = { portal_ids: [portal!.id] };
    const cases: Array<[unknown, string]> = [
      [{ title: "" }, "title"],
      [{ title: "Remind", send_reminder: true }, "send_reminder"],
      [{ title: "Form", action_type: "Fill Form" }, "form_fields"],
      [{ title: "Sign", action_type: "Sign Document" }, "document_file_id"],
      [{ title: "Sign", action_type: "Sign Document", document_file_id: randomUUID() }, "document_file_id"],
      [{ title: "Late", due: { kind: "relative", days: -1 } }, "due"],
    ];
    for (const [spec, field] of cases) {
      const error = await appErrorOf(createBulkRequest({ viewer, idempotencyKey: randomUUID(), target, spec: spec as never }));
      expect(error?.code).toBe("invalid_request");
      expect(error?.message.startsWith(field)).toBe(true);
    }
    const other = await createTestOrg();
    const foreign = await createTestPortal({ orgId: other.id });
    expect(await appErrorOf(createBulkRequest({ viewer, idempotencyKey: randomUUID(), target: { portal_ids: [foreign.id] }, spec: { title: "x" } }))).toEqual({
      code: "invalid_request",
      message: "target: No portal to send to",
    });
    expect(await appErrorOf(createBulkRequest({ viewer, idempotencyKey: "short", target, spec: { title: "x" } }))).toMatchObject({ code: "invalid_request" });
    expect(await db.bulkRequest.count({ where: { orgId: org.id } })).toBe(0);
  });
});
