import { describe, expect, it } from "vitest";
import { getUserViewer, systemViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { completeTaskByUpload } from "@/lib/tasks/complete-task";
import { deleteTask } from "@/lib/tasks/delete-task";
import { createApiContext, createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { eventsOf, tasksApi } from "@/test/routes/tasks-api";

// The task endpoints against a real database: D11 fields, D12 (one task.completed per Open → Done
// transition on every route), D17 assignees, D18's send_reminder rule, D4 ids, scopes.

async function context(options?: Parameters<typeof createApiContext>[0]) {
  const ctx = await createApiContext(options);
  const portal = await createTestPortal({ orgId: ctx.org.id });
  return { ...ctx, portal, api: tasksApi(ctx.token) };
}

async function newTask(ctx: Awaited<ReturnType<typeof context>>, body: Record<string, unknown> = {}) {
  const res = await ctx.api.create(ctx.portal.id, { title: "Send the bank statements", ...body });
  expect(res.status).toBe(201);
  return res.json.task_id;
}

const auditActions = async (orgId: string) =>
  (await db.auditLog.findMany({ where: { orgId, targetType: "task" }, orderBy: { createdAt: "asc" } })).map((a) => a.action);

describe("POST /portals/{portalId}/tasks", () => {
  it("creates an Open General task, fires task.created with its fields, writes the audit row and portal activity", async () => {
    const ctx = await context();
    const res = await ctx.api.create(ctx.portal.id, { title: "  Sign the engagement letter  " });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ task_id: expect.any(String) });
    const taskId = res.json.task_id;

    const list = await ctx.api.list(ctx.portal.id);
    expect(list.status).toBe(200);
    expect(list.json).toEqual([
      {
        id: taskId,
        vault_id: ctx.portal.id,
        org_id: ctx.org.id,
        title: "Sign the engagement letter",
        description: "",
        action_type: "General",
        status: "Open",
        due_date: null,
        created_at: expect.any(String),
        assignees: [],
        send_reminder: false,
        updated_at: expect.any(String),
        completed_at: null,
        attached_file_ids: [],
        document_file_id: null,
        signature_placement: null,
        signers: [],
        signing_order: null,
        form_fields: [],
      },
    ]);
    const [event, ...more] = await eventsOf(ctx.org.id, "task.created");
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      portalId: ctx.portal.id,
      data: { task_id: taskId, title: "Sign the engagement letter", action_type: "General", due_date: null, status: "Open" },
    });
    expect(await eventsOf(ctx.org.id, "task.reminders_changed")).toEqual([]);
    expect(await auditActions(ctx.org.id)).toEqual(["task.created"]);
    expect((await db.portal.findUniqueOrThrow({ where: { id: ctx.portal.id } })).lastActivityAt).not.toBeNull();
  });

  it("takes every action type, a due date, a description and resolves the assignees' names", async () => {
    const ctx = await context();
    const guest = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id, name: "Gina Guest" });
    const member = await createTestUser({ orgId: ctx.org.id, name: "Mo Member" });
    const due = "2030-03-01T09:30:00.000Z";
    const taskId = await newTask(ctx, {
      title: "Upload your ID",
      description: "Front and back",
      action_type: "File Request",
      due_date: "2030-03-01T10:30:00+01:00",
      assigned_guest_ids: [guest.id, guest.id],
      assigned_member_ids: [member.id],
      send_reminder: true,
    });
    const [task] = (await ctx.api.list(ctx.portal.id)).json;
    expect(task).toMatchObject({
      id: taskId,
      description: "Front and back",
      action_type: "File Request",
      due_date: due,
      send_reminder: true,
      assignees: [
        { user_id: guest.id, name: "Gina Guest", email: guest.email, type: "guest" },
        { user_id: member.id, name: "Mo Member", email: member.email, type: "member" },
      ],
    });
    expect((await eventsOf(ctx.org.id, "task.created"))[0]?.data).toMatchObject({ action_type: "File Request", due_date: due });
    expect((await eventsOf(ctx.org.id, "task.reminders_changed")).map((e) => e.data)).toEqual([
      { task_id: taskId, due_date: due, send_reminder: true, status: "Open", deleted: false },
    ]);
    for (const action_type of ["Question?", "Sign Document", "Fill Form", "General"]) {
      await newTask(ctx, { action_type });
    }
    expect((await ctx.api.list(ctx.portal.id)).json.map((t) => t.action_type)).toEqual(["File Request", "Question?", "Sign Document", "Fill Form", "General"]);
  });

  it("refuses a missing title, an unknown action type, send_reminder without due_date and bad dates, creating nothing", async () => {
    const ctx = await context();
    const cases: [unknown, RegExp][] = [
      [{}, /^title/],
      [{ title: "   " }, /^title/],
      [{ title: "x", action_type: "FileRequest" }, /^action_type/],
      [{ title: "x", action_type: "general" }, /^action_type/],
      [{ title: "x", send_reminder: true }, /^send_reminder: Requires due_date/],
      [{ title: "x", due_date: "tomorrow" }, /^due_date/],
      [{ title: 42 }, /^title/],
    ];
    for (const [body, description] of cases) {
      const res = await ctx.api.create(ctx.portal.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error).toBe("invalid_request");
      expect(res.json.error_description).toMatch(description);
    }
    expect(await db.task.count({ where: { orgId: ctx.org.id } })).toBe(0);
    expect(await eventsOf(ctx.org.id, "task.created")).toEqual([]);
  });

  it("refuses assignees that are not guests of the portal or members of the organization, naming the id (D17)", async () => {
    const ctx = await context();
    const otherPortal = await createTestPortal({ orgId: ctx.org.id });
    const guestElsewhere = await createTestGuest({ orgId: ctx.org.id, portalId: otherPortal.id });
    const otherOrg = await createTestOrg();
    const foreignMember = await createTestUser({ orgId: otherOrg.id });
    const guest = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id });
    const unknown = "8b0f8c1e-59a4-4a8e-9d44-2f1a3f0c9e11";
    const cases: [unknown, string][] = [
      [{ assigned_guest_ids: [guest.id, unknown] }, `assigned_guest_ids: ${unknown} is not a guest of this portal`],
      [{ assigned_guest_ids: [guestElsewhere.id] }, `assigned_guest_ids: ${guestElsewhere.id} is not a guest of this portal`],
      [{ assigned_guest_ids: ["not-a-uuid"] }, "assigned_guest_ids: not-a-uuid is not a guest of this portal"],
      [{ assigned_member_ids: [foreignMember.id] }, `assigned_member_ids: ${foreignMember.id} is not a member of this organization`],
      // A guest is not a member, and a member is not a guest of the portal.
      [{ assigned_member_ids: [guest.id] }, `assigned_member_ids: ${guest.id} is not a member of this organization`],
      [{ assigned_guest_ids: [ctx.user.id] }, `assigned_guest_ids: ${ctx.user.id} is not a guest of this portal`],
    ];
    for (const [body, description] of cases) {
      const res = await ctx.api.create(ctx.portal.id, { title: "x", ...(body as object) });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json).toEqual({ error: "invalid_request", error_description: description });
    }
    expect(await db.task.count({ where: { orgId: ctx.org.id } })).toBe(0);
  });

  it("is 404 for another organization's, a deleted or a malformed portal id", async () => {
    const ctx = await context();
    const other = await createTestPortal({ orgId: (await createTestOrg()).id });
    const deleted = await createTestPortal({ orgId: ctx.org.id, deletedAt: new Date() });
    for (const id of [other.id, deleted.id, "nope"]) {
      const created = await ctx.api.create(id, { title: "x" });
      expect(created.status).toBe(404);
      expect(created.json.error).toBe("not_found");
      expect((await ctx.api.list(id)).status).toBe(404);
    }
    expect(await db.task.count({ where: { portalId: other.id } })).toBe(0);
  });
});

describe("GET /portals/{portalId}/tasks", () => {
  it("lists active tasks in creation order with attached files, paged with Link (D5)", async () => {
    const ctx = await context();
    const a = await newTask(ctx, { title: "A" });
    const b = await newTask(ctx, { title: "B" });
    const c = await newTask(ctx, { title: "C" });
    await deleteTask({ viewer: await getUserViewer(ctx.user.id, ctx.org.id), taskId: c });
    const file = await db.fileEntry.create({
      data: { orgId: ctx.org.id, portalId: ctx.portal.id, name: "id.pdf", taskId: a, registeredAt: new Date() },
    });
    await db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, name: "pending.pdf", taskId: a, status: "pending" } });

    const first = await ctx.api.list(ctx.portal.id, "?limit=1");
    expect(first.json.map((t) => t.id)).toEqual([a]);
    expect(first.json[0]?.attached_file_ids).toEqual([file.id]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("Link") ?? "")?.[1];
    expect(next).toBeDefined();
    const second = await ctx.api.list(ctx.portal.id, new URL(next!).search);
    expect(second.json.map((t) => t.id)).toEqual([b]);
    expect(second.headers.get("Link")).toBeNull();
    expect((await ctx.api.list(ctx.portal.id, "?limit=0")).status).toBe(400);
  });
});

describe("PATCH /tasks/{taskId}", () => {
  it("changes only the fields sent; due_date null clears it", async () => {
    const ctx = await context();
    const taskId = await newTask(ctx, { description: "d", due_date: "2030-01-01T00:00:00Z" });
    const res = await ctx.api.update(taskId, { title: "Renamed" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, task_id: taskId });
    let [task] = (await ctx.api.list(ctx.portal.id)).json;
    expect(task).toMatchObject({ title: "Renamed", description: "d", due_date: "2030-01-01T00:00:00.000Z", status: "Open" });

    expect((await ctx.api.update(taskId, { due_date: null, description: "" })).status).toBe(200);
    [task] = (await ctx.api.list(ctx.portal.id)).json;
    expect(task).toMatchObject({ title: "Renamed", description: "", due_date: null });
    expect(await auditActions(ctx.org.id)).toEqual(["task.created", "task.updated", "task.updated"]);
    // Nothing changes, nothing is written.
    expect((await ctx.api.update(taskId, { title: "Renamed" })).status).toBe(200);
    expect(await auditActions(ctx.org.id)).toHaveLength(3);
    expect((await ctx.api.update(taskId, { title: "" })).status).toBe(400);
    expect((await ctx.api.update(taskId, { due_date: "soon" })).status).toBe(400);
  });

  it("status Closed completes and fires one task.completed; again fires nothing; 'whatever' reopens; done again fires again", async () => {
    const ctx = await context();
    const taskId = await newTask(ctx, { action_type: "File Request" });
    const file = await db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, name: "a.pdf", taskId, registeredAt: new Date() } });

    expect((await ctx.api.update(taskId, { status: "Closed" })).status).toBe(200);
    let [task] = (await ctx.api.list(ctx.portal.id)).json;
    expect(task).toMatchObject({ status: "Done", completed_at: expect.any(String) });
    const completed = await eventsOf(ctx.org.id, "task.completed");
    expect(completed.map((e) => e.data)).toEqual([
      { task_id: taskId, action_type: "File Request", status: "Done", attached_files: [{ file_id: file.id, name: "a.pdf" }] },
    ]);
    const row = await db.task.findUniqueOrThrow({ where: { id: taskId } });
    expect(row.completedById).toBe(ctx.user.id);

    for (const status of ["done", "COMPLETED", "closed"]) expect((await ctx.api.update(taskId, { status })).status).toBe(200);
    expect(await eventsOf(ctx.org.id, "task.completed")).toHaveLength(1);

    expect((await ctx.api.update(taskId, { status: "whatever" })).status).toBe(200);
    [task] = (await ctx.api.list(ctx.portal.id)).json;
    expect(task).toMatchObject({ status: "Open", completed_at: null });
    expect((await db.task.findUniqueOrThrow({ where: { id: taskId } })).completedById).toBeNull();
    expect((await ctx.api.update(taskId, { status: "open" })).status).toBe(200);

    expect((await ctx.api.update(taskId, { status: "Done" })).status).toBe(200);
    expect(await eventsOf(ctx.org.id, "task.completed")).toHaveLength(2);
    expect(await auditActions(ctx.org.id)).toEqual(["task.created", "task.completed", "task.reopened", "task.completed"]);
  });

  it("keeps send_reminder tied to a due date and records the reminder schedule's changes (D18)", async () => {
    const ctx = await context();
    const taskId = await newTask(ctx, { due_date: "2030-01-01T00:00:00Z", send_reminder: true });
    const cleared = await ctx.api.update(taskId, { due_date: null });
    expect(cleared.status).toBe(400);
    expect(cleared.json.error_description).toMatch(/^due_date/);
    expect((await ctx.api.update(taskId, { due_date: "2030-02-01T00:00:00Z" })).status).toBe(200);
    expect((await ctx.api.update(taskId, { status: "done" })).status).toBe(200);
    expect((await ctx.api.update(taskId, { status: "open", send_reminder: false })).status).toBe(200);
    expect((await ctx.api.update(taskId, { due_date: null })).status).toBe(200);
    const noDue = await newTask(ctx);
    expect((await ctx.api.update(noDue, { send_reminder: true })).json.error_description).toBe("send_reminder: Requires due_date");

    const changes = (await eventsOf(ctx.org.id, "task.reminders_changed")).map((e) => e.data);
    expect(changes).toEqual([
      { task_id: taskId, due_date: "2030-01-01T00:00:00.000Z", send_reminder: true, status: "Open", deleted: false },
      { task_id: taskId, due_date: "2030-02-01T00:00:00.000Z", send_reminder: true, status: "Open", deleted: false },
      { task_id: taskId, due_date: "2030-02-01T00:00:00.000Z", send_reminder: true, status: "Done", deleted: false },
      { task_id: taskId, due_date: "2030-02-01T00:00:00.000Z", send_reminder: false, status: "Open", deleted: false },
    ]);
    await deleteTask({ viewer: systemViewer(ctx.org.id), taskId });
    expect(await eventsOf(ctx.org.id, "task.reminders_changed")).toHaveLength(4);
    const withReminders = await newTask(ctx, { due_date: "2030-01-01T00:00:00Z", send_reminder: true });
    await deleteTask({ viewer: systemViewer(ctx.org.id), taskId: withReminders });
    expect((await eventsOf(ctx.org.id, "task.reminders_changed")).at(-1)?.data).toMatchObject({ task_id: withReminders, deleted: true });
  });
});

describe("POST /tasks/{taskId}/complete", () => {
  it("completes an Open task once; on a Done task it answers 200 and fires nothing", async () => {
    const ctx = await context();
    const taskId = await newTask(ctx);
    const res = await ctx.api.complete(taskId);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, task_id: taskId });
    expect(await eventsOf(ctx.org.id, "task.completed")).toHaveLength(1);
    const again = await ctx.api.complete(taskId);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ success: true, task_id: taskId });
    expect(await eventsOf(ctx.org.id, "task.completed")).toHaveLength(1);
    expect(await auditActions(ctx.org.id)).toEqual(["task.created", "task.completed"]);
  });

  it("of 10 concurrent completions exactly one fires task.completed", async () => {
    const ctx = await context();
    const taskId = await newTask(ctx);
    const results = await Promise.all(Array.from({ length: 10 }, () => ctx.api.complete(taskId)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await eventsOf(ctx.org.id, "task.completed")).toHaveLength(1);
    expect(await auditActions(ctx.org.id)).toEqual(["task.created", "task.completed"]);
  });

  it("a guest upload fulfils an Open File Request once, with the file_id in the event", async () => {
    const ctx = await context();
    const guest = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id });
    const request = await newTask(ctx, { action_type: "File Request" });
    const general = await newTask(ctx);
    const file = await db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, name: "id.pdf", taskId: request, registeredAt: new Date() } });
    const viewer = await getUserViewer(guest.id, ctx.org.id);
    expect(await completeTaskByUpload({ viewer, taskId: general, fileId: file.id })).toBe(false);
    expect(await completeTaskByUpload({ viewer, taskId: request, fileId: file.id })).toBe(true);
    expect(await completeTaskByUpload({ viewer, taskId: request, fileId: file.id })).toBe(false);
    expect((await eventsOf(ctx.org.id, "task.completed")).map((e) => e.data)).toEqual([
      { task_id: request, action_type: "File Request", status: "Done", attached_files: [{ file_id: file.id, name: "id.pdf" }], file_id: file.id },
    ]);
    expect((await db.task.findUniqueOrThrow({ where: { id: request } })).completedById).toBe(guest.id);
  });
});

describe("ids and scopes", () => {
  it("is 404 for another organization's, a deleted or a malformed task id, changing nothing", async () => {
    const ctx = await context();
    const other = await context();
    const foreign = await newTask(other);
    const deleted = await newTask(ctx);
    await deleteTask({ viewer: systemViewer(ctx.org.id), taskId: deleted });
    for (const id of [foreign, deleted, "not-a-uuid", "00000000-0000-0000-0000-000000000000"]) {
      for (const res of [await ctx.api.update(id, { status: "done" }), await ctx.api.complete(id)]) {
        expect(res.status, id).toBe(404);
        expect(res.json).toEqual({ error: "not_found", error_description: "Task not found" });
      }
    }
    expect((await db.task.findUniqueOrThrow({ where: { id: foreign } })).status).toBe("Open");
    expect(await eventsOf(other.org.id, "task.completed")).toEqual([]);
  });

  it("needs task:read to list and task:write to change", async () => {
    const owner = await context();
    const taskId = await newTask(owner);
    const reader = tasksApi((await createApiContext({ scopes: ["task:read"] })).token);
    const writer = tasksApi((await createApiContext({ scopes: ["task:write"] })).token);
    for (const res of [
      await reader.create(owner.portal.id, { title: "x" }),
      await reader.update(taskId, { title: "x" }),
      await reader.complete(taskId),
      await writer.list(owner.portal.id),
    ]) {
      expect(res.status).toBe(403);
      expect(res.json.error).toBe("insufficient_scope");
    }
    // With the right scope, another organization's ids are simply not found.
    expect((await reader.list(owner.portal.id)).status).toBe(404);
    expect((await writer.complete(taskId)).status).toBe(404);
  });
});
