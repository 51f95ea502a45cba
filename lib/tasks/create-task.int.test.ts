import { randomUUID } from "node:crypto";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { getPortal } from "@/lib/portals/get-portal";
import { createPortal } from "@/lib/portals/create-portal";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createTask } from "./create-task";

// createTask and createPortal write their rows, audit row and outbox events as one statement
//: what they write must be what the interactive transaction wrote, all or nothing.

async function context() {
  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin", name: "Ann Admin" });
  const portal = await createTestPortal({ orgId: org.id });
  return { org, admin, portal, viewer: await getUserViewer(admin.id, org.id) };
}

/** The statements sent to PostgreSQL while `fn` runs. */
async function statementsOf(fn: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<typeof original>) {
    count += 1;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return count;
}

describe("createTask", () => {
  it("writes the task, its assignees, the portal's activity, the audit row and both events together", async () => {
    const { org, admin, portal, viewer } = await context();
    const guest = await createTestGuest({ orgId: org.id, portalId: portal.id, name: "Gail Guest" });
    const member = await createTestUser({ orgId: org.id, name: "Max Member" });
    const { taskId } = await createTask({
      viewer,
      portalId: portal.id,
      title: "Send the W-2",
      description: "Both pages",
      action_type: "File Request",
      due_date: "2030-01-15T00:00:00.000Z",
      send_reminder: true,
      assigned_guest_ids: [guest.id],
      assigned_member_ids: [member.id],
    });

    const task = await db.task.findUniqueOrThrow({ where: { id: taskId }, include: { assignees: { orderBy: { type: "asc" } } } });
    expect(task).toMatchObject({ orgId: org.id, portalId: portal.id, title: "Send the W-2", description: "Both pages", actionType: "FileRequest" });
    expect(task).toMatchObject({ status: "Open", sendReminder: true, createdById: admin.id, deletedAt: null });
    expect(task.dueDate?.toISOString()).toBe("2030-01-15T00:00:00.000Z");
    expect(task.updatedAt).toEqual(task.createdAt);
    expect(task.assignees.map((a) => ({ userId: a.userId, type: a.type, name: a.name, email: a.email }))).toEqual([
      { userId: guest.id, type: "guest", name: "Gail Guest", email: guest.email },
      { userId: member.id, type: "member", name: "Max Member", email: member.email },
    ]);
    // Activity is the task's creation time, in UTC like every timestamp Prisma writes.
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).lastActivityAt).toEqual(task.createdAt);
    expect(Math.abs(task.createdAt.getTime() - Date.now())).toBeLessThan(60_000);

    const audit = await db.auditLog.findMany({ where: { portalId: portal.id } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      orgId: org.id,
      actorType: "user",
      actorUserId: admin.id,
      oauthClientId: null,
      action: "task.created",
      targetType: "task",
      targetId: taskId,
    });
    expect(audit[0]!.metadata).toEqual({
      title: "Send the W-2",
      action_type: "File Request",
      due_date: "2030-01-15T00:00:00.000Z",
      send_reminder: true,
      assignees: [
        { user_id: guest.id, type: "guest" },
        { user_id: member.id, type: "member" },
      ],
    });

    const events = await db.event.findMany({ where: { portalId: portal.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    expect(events.map((e) => e.type)).toEqual(["task.created", "task.reminders_changed"]);
    expect(events[0]!.data).toEqual({
      task_id: taskId,
      title: "Send the W-2",
      action_type: "File Request",
      due_date: "2030-01-15T00:00:00.000Z",
      status: "Open",
    });
    expect(events[1]!.data).toEqual({ task_id: taskId, due_date: "2030-01-15T00:00:00.000Z", send_reminder: true, status: "Open", deleted: false });
    expect(events.every((e) => e.orgId === org.id && e.dispatchedAt === null && e.dispatchAttempts === 0)).toBe(true);
  });

  it("is one statement without assignees", async () => {
    const { portal, viewer } = await context();
    expect(await statementsOf(() => createTask({ viewer, portalId: portal.id, title: "One round trip" }))).toBe(1);
  });

  it("is 404 for a portal that is not there (before checking assignees) and writes nothing", async () => {
    const { org, portal, viewer } = await context();
    const deleted = await createTestPortal({ orgId: org.id, deletedAt: new Date() });
    for (const portalId of [randomUUID(), deleted.id, "not-a-uuid"]) {
      await expect(createTask({ viewer, portalId, title: "Nowhere" })).rejects.toMatchObject({ status: 404 });
      await expect(createTask({ viewer, portalId, title: "Nowhere", assigned_guest_ids: [randomUUID()] })).rejects.toMatchObject({ status: 404 });
    }
    await expect(createTask({ viewer, portalId: portal.id, title: "Stranger", assigned_guest_ids: [randomUUID()] })).rejects.toMatchObject({ status: 400 });
    expect(await db.task.count({ where: { orgId: org.id } })).toBe(0);
    expect(await db.auditLog.count({ where: { orgId: org.id } })).toBe(0);
    expect(await db.event.count({ where: { orgId: org.id } })).toBe(0);
  });

  it("creates 16 tasks at once in one portal: every row once, the latest activity kept", async () => {
    const { org, portal, viewer } = await context();
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => createTask({ viewer, portalId: portal.id, title: `Task ${i}` })));
    expect(new Set(results.map((r) => r.taskId)).size).toBe(16);
    const tasks = await db.task.findMany({ where: { portalId: portal.id } });
    expect(tasks).toHaveLength(16);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "task.created" } })).toBe(16);
    expect(await db.event.count({ where: { orgId: org.id, type: "task.created" } })).toBe(16);
    const latest = Math.max(...tasks.map((t) => t.createdAt.getTime()));
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).lastActivityAt?.getTime()).toBe(latest);
  });
});

describe("createPortal without a template", () => {
  it("returns the portal as a read gives it, with its audit row and portal.created, in one statement", async () => {
    const { org, admin, viewer } = await context();
    let created: Awaited<ReturnType<typeof createPortal>> | undefined;
    expect(await statementsOf(async () => (created = await createPortal({ viewer, name: "Acme", tags: ["vip", "2026", "vip"] })))).toBe(1);
    const portal = created!;
    expect(portal).toEqual(await getPortal({ viewer, portalId: portal.id }));
    expect(portal).toMatchObject({ name: "Acme", tags: ["vip", "2026"], isTemplate: false, createdById: admin.id, openTaskCount: 0, lastActivityAt: null });

    const row = await db.portal.findUniqueOrThrow({ where: { id: portal.id } });
    expect(row.updatedAt).toEqual(row.createdAt);
    const audit = await db.auditLog.findMany({ where: { portalId: portal.id } });
    expect(audit.map((a) => [a.action, a.targetId, a.actorUserId, a.metadata])).toEqual([
      ["portal.created", portal.id, admin.id, { name: "Acme", tags: ["vip", "2026"], is_template: false, template_id: null, folders_copied: 0 }],
    ]);
    const events = await db.event.findMany({ where: { portalId: portal.id } });
    expect(events.map((e) => [e.orgId, e.type, e.data])).toEqual([
      [org.id, "portal.created", { created_by: admin.id, tags: ["vip", "2026"], is_template: false }],
    ]);
    expect(events[0]!.createdAt).toEqual(row.createdAt);
  });
});
