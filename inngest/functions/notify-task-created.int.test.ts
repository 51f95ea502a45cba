import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { relayedEvent } from "./test-support/webhook-fixtures";
import { notifyPortalUsers } from "./notify-portal-users";
import { notifyTaskCreated } from "./notify-task-created";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTask } from "@/lib/tasks/create-task";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { flushNotices, holdNotice } from "@/lib/notifications/batch";
import { sendDigest } from "@/lib/notifications/digest";
import { setNotificationPreferences } from "@/lib/notifications/preferences";

// Clients hear about requests created for them, and members about uploads, with several notices
// of one kind within the batch window going out as one email. The tasks are created by the
// domain function, and the functions run on the events the creation wrote to the outbox.

async function setup() {
  const org = await createTestOrg({ name: "Firm & Co" });
  await db.organization.update({ where: { id: org.id }, data: { brandColor: "#7b2d26" } });
  const admin = await createTestUser({ orgId: org.id, role: "admin", name: "Alice Admin" });
  const portal = await createTestPortal({ orgId: org.id, name: "Acme Ltd" });
  const guest = await createTestGuest({ orgId: org.id, portalId: portal.id, name: "Gail Guest" });
  const other = await createTestGuest({ orgId: org.id, portalId: portal.id, name: "Otto Other" });
  return { org, admin, portal, guest, other, viewer: await getUserViewer(admin.id, org.id) };
}

async function createdEvent(taskId: string) {
  const rows = await db.event.findMany({ where: { type: "task.created" } });
  const row = rows.find((r) => (r.data as { task_id: string }).task_id === taskId)!;
  return relayedEvent(row);
}

type Fn = typeof notifyTaskCreated | typeof notifyPortalUsers;
type AnyEvent = { name: string; data: Record<string, unknown> };
/** A run with its batch window mocked: `during` is what happens while it sleeps. */
const engine = (fn: Fn, event: AnyEvent, during: () => unknown = () => undefined) =>
  new InngestTestEngine({ function: fn, events: [event as never], steps: [{ id: "batch-window", handler: async () => void (await during()) }] });
const run = async (taskId: string) => (await engine(notifyTaskCreated, await createdEvent(taskId)).execute()).result;
const mails = (to: string) => db.outboundEmail.findMany({ where: { to }, orderBy: { createdAt: "asc" } });

describe("new requests for clients", () => {
  it("emails the assigned client, branded, with the task link and due date; others hear nothing", async () => {
    const s = await setup();
    const { taskId } = await createTask({
      viewer: s.viewer,
      portalId: s.portal.id,
      title: "Bank statements <March>",
      action_type: "File Request",
      due_date: "2026-12-01T12:00:00Z",
      assigned_guest_ids: [s.guest.id],
    });
    expect(await run(taskId)).toEqual({ held: 1 });
    const [mail, ...more] = await mails(s.guest.email);
    expect(more).toEqual([]);
    expect(mail).toMatchObject({
      orgId: s.org.id,
      template: "task-created",
      status: "captured",
      subject: "New request from Firm & Co: Bank statements <March>",
    });
    expect(mail!.text).toContain('Firm & Co asks you for files in the portal "Acme Ltd"');
    expect(mail!.text).toContain("Due 1 Dec 2026");
    expect(mail!.text).toContain(`/org/${s.org.id}/client/${s.portal.id}#task-${taskId}`);
    expect(mail!.html).toContain('data-brand="#7b2d26"');
    expect(mail!.html).toContain("Bank statements &lt;March&gt;");
    expect(await mails(s.other.email)).toEqual([]);
    expect(await mails(s.admin.email)).toEqual([]);
  });

  it("writes the due date on the day it falls in the client's own zone", async () => {
    const s = await setup();
    await db.user.update({ where: { id: s.guest.id }, data: { timeZone: "Pacific/Auckland" } });
    const { taskId } = await createTask({
      viewer: s.viewer,
      portalId: s.portal.id,
      title: "Payroll",
      due_date: "2026-12-01T12:00:00Z",
      assigned_guest_ids: [s.guest.id],
    });
    await run(taskId);
    const [mail] = await mails(s.guest.email);
    // 12:00 UTC on 1 December is 01:00 on 2 December in Auckland (NZDT, UTC+13).
    expect(mail!.text).toContain("Due 2 Dec 2026");
  });

  it("an unassigned task is for every accepted guest of the portal; one assigned to members only is for none", async () => {
    const s = await setup();
    const pending = await createTestUser({ name: "Not accepted" });
    await db.portalGuest.create({ data: { orgId: s.org.id, portalId: s.portal.id, userId: pending.id, permissions: {} } });
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Anything to add?", action_type: "Question?" });
    expect(await run(taskId)).toEqual({ held: 2 });
    expect((await mails(s.guest.email)).map((m) => m.subject)).toEqual(["New request from Firm & Co: Anything to add?"]);
    expect(await mails(s.other.email)).toHaveLength(1);
    expect(await mails(pending.email)).toEqual([]);

    const internal = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Internal", assigned_member_ids: [s.admin.id] });
    expect(await run(internal.taskId)).toEqual({ held: 0 });
    expect(await mails(s.guest.email)).toHaveLength(1);
  });

  it("requests created within the window go out as one email; the later runs send nothing more", async () => {
    const s = await setup();
    const titles = ["Passport copy", "Sign the engagement letter", "Payroll questions"];
    const ids: string[] = [];
    for (const title of titles) ids.push((await createTask({ viewer: s.viewer, portalId: s.portal.id, title, assigned_guest_ids: [s.guest.id] })).taskId);
    // The other creations' runs hold their notices while the first run sleeps; it then sends them all.
    const [first, ...rest] = await Promise.all(ids.map(createdEvent));
    await engine(notifyTaskCreated, first!, async () => {
      for (const event of rest) await engine(notifyTaskCreated, event).executeStep(`offer-${s.guest.id}`);
      expect(await mails(s.guest.email)).toEqual([]);
    }).execute();
    for (const event of rest) expect((await engine(notifyTaskCreated, event).execute()).result).toEqual({ held: 1 });
    const [mail, ...more] = await mails(s.guest.email);
    expect(more).toEqual([]);
    expect(mail!.subject).toBe("3 new requests from Firm & Co");
    for (const [i, title] of titles.entries()) {
      expect(mail!.text).toContain(title);
      expect(mail!.text).toContain(`#task-${ids[i]}`);
    }
    expect(await db.batchedNotice.count({ where: { userId: s.guest.id, sentAt: null } })).toBe(0);
  });

  it("follows the client's choice: digest keeps it for the daily digest, off sends nothing", async () => {
    const s = await setup();
    const prefs = {
      uploads: "immediately",
      taskCompletions: "immediately",
      reminders: "immediately",
      invitations: "immediately",
      messages: "immediately",
    } as const;
    await setNotificationPreferences(s.guest.id, { ...prefs, requests: "digest" });
    await setNotificationPreferences(s.other.id, { ...prefs, requests: "off" });
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Year-end checklist" });
    expect(await run(taskId)).toEqual({ held: 0 });
    expect(await mails(s.guest.email)).toEqual([]);
    expect(await mails(s.other.email)).toEqual([]);
    expect(await db.digestItem.findMany({ where: { userId: s.guest.id }, select: { kind: true, subject: true } })).toEqual([
      { kind: "requests", subject: "New request from Firm & Co: Year-end checklist" },
    ]);
    expect(await db.digestItem.count({ where: { userId: s.other.id } })).toBe(0);
    expect(await sendDigest(s.guest.id)).toEqual({ items: 1 });
  });

  it("a task completed or deleted before its run is not announced", async () => {
    const s = await setup();
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Quick one" });
    await db.task.update({ where: { id: taskId }, data: { deletedAt: new Date() } });
    expect(await run(taskId)).toEqual({ held: 0 });
    expect(await mails(s.guest.email)).toEqual([]);
  });
});

describe("batched flushes", () => {
  it("concurrent flushes send each held notice once", async () => {
    const s = await setup();
    const line = { title: "x", url: "https://example.test/x", detail: "d" };
    for (let i = 0; i < 4; i++) {
      await holdNotice({ userId: s.guest.id, orgId: s.org.id, kind: "requests", sourceId: `t${i}`, subject: `S${i}`, text: "t", html: "h", line });
    }
    // A repeated hold (a retried step) adds nothing.
    await holdNotice({ userId: s.guest.id, orgId: s.org.id, kind: "requests", sourceId: "t0", subject: "S0", text: "t", html: "h", line });
    const results = await Promise.all(Array.from({ length: 5 }, () => flushNotices({ userId: s.guest.id, orgId: s.org.id, kind: "requests" })));
    expect(results.map((r) => r.sent).sort()).toEqual([0, 0, 0, 0, 4]);
    expect(await mails(s.guest.email)).toHaveLength(1);
  });

  it("five uploads by a client reach each member as one email", async () => {
    const s = await setup();
    const member = await createTestUser({ orgId: s.org.id, role: "member", name: "Mo Member" });
    const uploads = Array.from({ length: 5 }, (_, i) => ({
      name: "file.uploaded",
      data: {
        event_id: crypto.randomUUID(),
        org_id: s.org.id,
        portal_id: s.portal.id,
        file_id: crypto.randomUUID(),
        name: `page-${i + 1}.pdf`,
        extension: "pdf",
        size: 1200,
        content_type: "application/pdf",
        uploaded_by: s.guest.id,
        uploaded_by_email: s.guest.email,
        uploaded_by_name: "Gail Guest",
        task_id: null,
      },
    }));
    const [first, ...rest] = uploads;
    await engine(notifyPortalUsers, first!, async () => {
      for (const event of rest) for (const user of [member, s.admin]) await engine(notifyPortalUsers, event).executeStep(`notify-${user.id}`);
      expect(await mails(member.email)).toEqual([]);
    }).execute();
    for (const event of rest) await engine(notifyPortalUsers, event).execute();
    for (const to of [member.email, s.admin.email]) {
      const [mail, ...more] = await mails(to);
      expect(more).toEqual([]);
      expect(mail!.subject).toBe("5 new files in Firm & Co");
      for (let i = 1; i <= 5; i++) expect(mail!.text).toContain(`page-${i}.pdf (Acme Ltd · by Gail Guest)`);
      expect(mail!.html).toContain('data-brand="#7b2d26"');
    }
  });
});
