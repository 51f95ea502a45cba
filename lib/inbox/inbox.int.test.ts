import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { listPortalAudit } from "@/lib/audit/list-audit";
import { db } from "@/lib/db";
import { postMessage } from "@/lib/messages/post-message";
import { listMessages, markThreadRead, unreadMessageCount } from "@/lib/messages/thread";
import { decodeCursor } from "@/lib/pagination";
import { createTask } from "@/lib/tasks/create-task";
import { answerQuestion } from "@/lib/tasks/task-answers";
import { createTestGuest, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createForeignAdmin, createMemberContext, outcomeOf } from "@/lib/test-support/outcome";
import { removeObjectsAfterEach, uploadForTask } from "@/lib/test-support/storage";
import { completeUpload } from "@/lib/files/complete-upload";
import { startUpload } from "@/lib/files/start-upload";
import { inboxUnreadCount, listInbox } from "./list-inbox";
import { markAllInboxSeen, markInboxItemSeen } from "./seen";

// The firm's inbox and the portals' messages against PostgreSQL and S3: what a client does lands
// in the inbox in the same transaction, each member has their own seen state and count, pages
// follow the keyset, the thread's read state is per person, and messages are emailed to the other
// side under the "messages" choice (inngest/functions/notify-message-posted.int.test.ts).

const cleanUp = removeObjectsAfterEach();
/** The refusal's code alone ("ok" for success). */
const codeOf = async (p: Promise<unknown>) => (await outcomeOf(p)).split(":")[0];

async function setup() {
  const ctx = await createMemberContext({ name: "Mia Member" });
  cleanUp(ctx.org.id);
  const admin = await createTestUser({ orgId: ctx.org.id, role: "admin", name: "Ada Admin" });
  const guestUser = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id, name: "Gina Guest" });
  // Members joined before anything happened (the inbox's default watermark is the time they joined).
  await db.membership.updateMany({ where: { orgId: ctx.org.id }, data: { createdAt: new Date(Date.now() - 3_600_000) } });
  return {
    ...ctx,
    guestUser,
    guest: await getUserViewer(guestUser.id, ctx.org.id),
    adminViewer: await getUserViewer(admin.id, ctx.org.id),
  };
}

async function guestUpload(viewer: Awaited<ReturnType<typeof getUserViewer>>, portalId: string, name: string) {
  const ticket = await startUpload({ viewer, portalId, filename: name, contentType: "text/plain" });
  expect((await fetch(ticket.uploadUrl, { method: "PUT", body: `bytes of ${name}`, headers: { "content-type": "text/plain" } })).ok).toBe(true);
  return completeUpload({ viewer, portalId, fileId: ticket.fileId, filename: name });
}

describe("the firm's inbox", () => {
  it("has what clients did (not members), newest first, with per-member seen state, count and mark all seen", async () => {
    const s = await setup();
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Which bank?", action_type: "Question?" });
    await answerQuestion({ viewer: s.guest, taskId, text: "Northwind Bank" });
    await guestUpload(s.guest, s.portal.id, "receipt.txt");
    await guestUpload(s.viewer, s.portal.id, "member-upload.txt");

    const { items } = await listInbox({ viewer: s.viewer });
    expect(items.map((i) => [i.kind, i.title, i.seen])).toEqual([
      ["upload", "receipt.txt", false],
      ["answer", "Which bank?", false],
    ]);
    expect(items[0]).toMatchObject({ portalName: s.portal.name, actor: "Gina Guest" });
    expect(items[1]!.href).toBe(`/org/${s.org.id}/vault/${s.portal.id}/tasks/${taskId}`);
    expect(await inboxUnreadCount({ viewer: s.viewer })).toBe(2);
    expect(await inboxUnreadCount({ viewer: s.adminViewer })).toBe(2);

    // Opening one marks it seen for that member only; twice is harmless.
    await markInboxItemSeen({ viewer: s.viewer, itemId: items[0]!.id });
    await markInboxItemSeen({ viewer: s.viewer, itemId: items[0]!.id });
    expect(await inboxUnreadCount({ viewer: s.viewer })).toBe(1);
    expect(await inboxUnreadCount({ viewer: s.adminViewer })).toBe(2);
    expect((await listInbox({ viewer: s.viewer, filter: { unread: true } })).items.map((i) => i.kind)).toEqual(["answer"]);

    await markAllInboxSeen({ viewer: s.viewer });
    expect(await inboxUnreadCount({ viewer: s.viewer })).toBe(0);
    expect((await listInbox({ viewer: s.viewer })).items.every((i) => i.seen)).toBe(true);
    expect(await db.inboxSeen.count({ where: { userId: s.member.id } })).toBe(0);

    // Another organization's admin, a guest, the system: no inbox, no item.
    const foreign = await createForeignAdmin();
    expect(await codeOf(markInboxItemSeen({ viewer: foreign, itemId: items[1]!.id }))).toBe("not_found");
    expect(await codeOf(listInbox({ viewer: s.guest }))).toBe("forbidden");
    expect((await listInbox({ viewer: foreign })).items).toEqual([]);
  });

  it("pages by keyset across items and overdue requests, filters by portal, kind and whose", async () => {
    const s = await setup();
    const other = await createTestPortal({ orgId: s.org.id, name: "Other portal" });
    const base = Date.now() - 60_000;
    // 7 items with distinct times, 3 sharing one time (the id breaks the tie), on two portals.
    const data = Array.from({ length: 10 }, (_, i) => ({
      orgId: s.org.id,
      portalId: i % 2 === 0 ? s.portal.id : other.id,
      kind: "upload" as const,
      title: `File ${i}`,
      createdAt: new Date(i < 3 ? base : base + i * 1000),
    }));
    await db.inboxItem.createMany({ data });
    // One overdue request, assigned to the member; one not yet due.
    const overdue = await db.task.create({ data: { orgId: s.org.id, portalId: other.id, title: "Overdue return", dueDate: new Date(base + 4500) } });
    await db.taskAssignee.create({ data: { taskId: overdue.id, userId: s.member.id, type: "member", email: "m@test.example" } });
    await db.task.create({ data: { orgId: s.org.id, portalId: other.id, title: "Later", dueDate: new Date(Date.now() + 86_400_000) } });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Awaited<ReturnType<typeof listInbox>> = await listInbox({
        viewer: s.viewer,
        filter: cursor ? { cursor: decodeCursor(cursor)! } : {},
        pageSize: 3,
      });
      seen.push(...page.items.map((i) => i.title));
      cursor = page.next;
      pages++;
    } while (cursor);
    expect(pages).toBe(4);
    expect(seen).toHaveLength(11);
    expect(new Set(seen).size).toBe(11);
    expect(seen.slice(0, 6)).toEqual(["File 9", "File 8", "File 7", "File 6", "File 5", "Overdue return"]);

    expect((await listInbox({ viewer: s.viewer, filter: { portal: other.id } })).items).toHaveLength(6);
    expect((await listInbox({ viewer: s.viewer, filter: { kind: "overdue" } })).items.map((i) => i.title)).toEqual(["Overdue return"]);
    expect((await listInbox({ viewer: s.viewer, filter: { kind: "message" } })).items).toEqual([]);
    // Mine: the overdue request assigned to the member; the items have no request and the portals no creator.
    expect((await listInbox({ viewer: s.viewer, filter: { mine: true } })).items.map((i) => i.title)).toEqual(["Overdue return"]);
    expect((await listInbox({ viewer: s.adminViewer, filter: { mine: true } })).items).toEqual([]);
    await db.portal.update({ where: { id: s.portal.id }, data: { createdById: s.adminViewer.userId } });
    expect((await listInbox({ viewer: s.adminViewer, filter: { mine: true } })).items).toHaveLength(5);
    // A deleted portal's items leave the inbox and the count.
    const before = await inboxUnreadCount({ viewer: s.viewer });
    await db.portal.update({ where: { id: other.id }, data: { deletedAt: new Date() } });
    expect(await inboxUnreadCount({ viewer: s.viewer })).toBe(before - 5);
  });

  it("counts stop at the cap", async () => {
    const s = await setup();
    await db.inboxItem.createMany({
      data: Array.from({ length: 130 }, (_, i) => ({ orgId: s.org.id, portalId: s.portal.id, kind: "upload" as const, title: `F${i}` })),
    });
    expect(await inboxUnreadCount({ viewer: s.viewer })).toBe(100);
  });

  it("concurrent opens and mark-all from two tabs never fail and agree", async () => {
    const s = await setup();
    await db.inboxItem.createMany({
      data: Array.from({ length: 20 }, (_, i) => ({ orgId: s.org.id, portalId: s.portal.id, kind: "upload" as const, title: `F${i}` })),
    });
    const { items } = await listInbox({ viewer: s.viewer });
    const results = await Promise.allSettled([
      ...items.map((i) => markInboxItemSeen({ viewer: s.viewer, itemId: i.id })),
      ...items.map((i) => markInboxItemSeen({ viewer: s.viewer, itemId: i.id })),
      markAllInboxSeen({ viewer: s.viewer }),
      markAllInboxSeen({ viewer: s.viewer }),
    ]);
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
    expect(await inboxUnreadCount({ viewer: s.viewer })).toBe(0);
  });
});

describe("portal messages", () => {
  it("a client's message with an attachment: one inbox item (not the upload's), audit row, event; read state per person", async () => {
    const s = await setup();
    const file = await guestUpload(s.guest, s.portal.id, "payslip.txt");
    expect((await listInbox({ viewer: s.viewer })).items.map((i) => i.kind)).toEqual(["upload"]);
    const sent = await postMessage({ viewer: s.guest, portalId: s.portal.id, body: "Here is my payslip.\nThanks!", fileIds: [file.id] });
    expect(sent.files).toEqual([{ id: file.id, name: "payslip.txt" }]);

    const { items } = await listInbox({ viewer: s.viewer });
    expect(items.map((i) => [i.kind, i.title])).toEqual([["message", "Here is my payslip. Thanks!"]]);
    expect(items[0]!.href).toBe(`/org/${s.org.id}/vault/${s.portal.id}/messages#message-${sent.id}`);
    const audit = await listPortalAudit({ viewer: s.viewer, portalId: s.portal.id, limit: 10 });
    expect(audit.items.find((a) => a.action === "message.posted")).toMatchObject({ targetId: sent.id });
    expect(await db.event.count({ where: { orgId: s.org.id, type: "message.posted" } })).toBe(1);

    // The member sees it unread; the author does not.
    expect(await unreadMessageCount({ viewer: s.viewer, portalId: s.portal.id })).toBe(1);
    expect(await unreadMessageCount({ viewer: s.guest, portalId: s.portal.id })).toBe(0);
    const thread = await listMessages({ viewer: s.viewer, portalId: s.portal.id });
    expect(thread.messages).toMatchObject([
      { body: "Here is my payslip.\nThanks!", fromFirm: false, unread: true, author: "Gina Guest", files: [{ name: "payslip.txt" }] },
    ]);

    // Reading the thread marks the message item seen in the member's inbox.
    await markThreadRead({ viewer: s.viewer, portalId: s.portal.id, until: thread.messages[0]!.createdAt });
    expect(await unreadMessageCount({ viewer: s.viewer, portalId: s.portal.id })).toBe(0);
    expect(await inboxUnreadCount({ viewer: s.viewer })).toBe(0);
    expect(await inboxUnreadCount({ viewer: s.adminViewer })).toBe(1);
    // Never back: an older marker leaves it read.
    await markThreadRead({ viewer: s.viewer, portalId: s.portal.id, until: new Date(0) });
    expect(await unreadMessageCount({ viewer: s.viewer, portalId: s.portal.id })).toBe(0);

    // The firm answers: no inbox item; the client has one unread.
    await postMessage({ viewer: s.viewer, portalId: s.portal.id, body: "Thank you, received." });
    expect((await listInbox({ viewer: s.adminViewer })).items).toHaveLength(1);
    expect(await unreadMessageCount({ viewer: s.guest, portalId: s.portal.id })).toBe(1);
  });

  it("refuses what is not the author's to attach, empty messages, other portals and other organizations", async () => {
    const s = await setup();
    const memberFile = await guestUpload(s.viewer, s.portal.id, "firm.txt");
    expect(await codeOf(postMessage({ viewer: s.guest, portalId: s.portal.id, body: "x", fileIds: [memberFile.id] }))).toBe("invalid_request");
    expect(await codeOf(postMessage({ viewer: s.guest, portalId: s.portal.id, body: "   " }))).toBe("invalid_request");
    const sent = await postMessage({ viewer: s.viewer, portalId: s.portal.id, body: "", fileIds: [memberFile.id] });
    // Attached once only.
    expect(await codeOf(postMessage({ viewer: s.viewer, portalId: s.portal.id, body: "again", fileIds: [memberFile.id] }))).toBe("invalid_request");
    expect(await db.message.count({ where: { portalId: s.portal.id } })).toBe(1);
    expect(sent.files).toHaveLength(1);

    const elsewhere = await createTestPortal({ orgId: s.org.id, name: "Not Gina's" });
    expect(await codeOf(postMessage({ viewer: s.guest, portalId: elsewhere.id, body: "hi" }))).toBe("not_found");
    expect(await codeOf(listMessages({ viewer: s.guest, portalId: elsewhere.id }))).toBe("not_found");
    const foreign = await createForeignAdmin();
    expect(await codeOf(listMessages({ viewer: foreign, portalId: s.portal.id }))).toBe("not_found");
    expect(await codeOf(postMessage({ viewer: foreign, portalId: s.portal.id, body: "hi" }))).toBe("not_found");
  });

  it("concurrent messages with the same attachment: exactly one gets it, none fails with a 500", async () => {
    const s = await setup();
    const file = await guestUpload(s.guest, s.portal.id, "one.txt");
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) => postMessage({ viewer: s.guest, portalId: s.portal.id, body: `try ${i}`, fileIds: [file.id] })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(await codeOf(Promise.reject(r.reason))).toBe("invalid_request");
    expect(await db.message.count({ where: { portalId: s.portal.id } })).toBe(1);
  });
});

// The task-completion path also writes items for a File Request fulfilled by an upload.
describe("uploads for a request", () => {
  it("an upload that fulfils a File Request is one upload item linked to the request", async () => {
    const s = await setup();
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Bank statement", action_type: "File Request" });
    await uploadForTask(s.guest, s.portal.id, taskId, "march.txt");
    const { items } = await listInbox({ viewer: s.viewer });
    expect(items).toMatchObject([{ kind: "upload", title: "march.txt", taskId }]);
  });
});
