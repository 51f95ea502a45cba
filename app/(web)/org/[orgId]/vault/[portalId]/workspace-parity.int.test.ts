import { beforeEach, describe, expect, it, vi } from "vitest";
import { POST as postGuests } from "@/app/api/v1/portals/[portalId]/guests/route";
import { callRoute } from "@/test/routes/call-route";
import { portalApi } from "@/test/routes/portal-api";
import { tasksApi } from "@/test/routes/tasks-api";
import { systemViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTask } from "@/lib/tasks/create-task";
import { createApiContext, createTestGuest, createTestPortal, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { inviteGuestsAction } from "./guest-actions";
import { setWorkflowStateAction } from "./portal-actions";
import { createTaskAction, setTaskStatusAction } from "./task-actions";

// The web actions and the API run the same domain functions: for the same change they write the
// same events (the outbox rows webhooks and Inngest read) and the same audit rows, payload for
// payload. Each change is made once on the web (portal W) and once through /api/v1 (portal A) by
// the same admin; ids and times differ, so both are replaced by placeholders before comparing.
// The session is the one thing stood in for (Auth.js needs a request); revalidatePath needs
// Next's request store.

const session = vi.hoisted(() => ({ user: { id: "", email: "admin@example.com", name: "Admin" } }));
vi.mock("@/lib/auth/session", () => ({ currentUser: async () => session.user, requireUser: async () => session.user }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g;
/** A payload with every id and time replaced, so that two portals' rows compare. */
const shape = (value: unknown) => JSON.parse(JSON.stringify(value).replace(UUID, "<id>").replace(ISO, "<time>")) as unknown;

/** Events and audit rows of one portal written after `since`, as type/action and shaped payload. */
async function changesOf(orgId: string, portalId: string, since: Date) {
  const [events, audits] = await Promise.all([
    db.event.findMany({ where: { orgId, portalId, createdAt: { gte: since } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
    db.auditLog.findMany({ where: { orgId, portalId, createdAt: { gte: since } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }),
  ]);
  return {
    events: events.map((e) => ({ type: e.type, data: shape(e.data) })),
    audits: audits.map((a) => ({ action: a.action, targetType: a.targetType, metadata: shape(a.metadata), actor: a.actorUserId })),
    clients: audits.map((a) => a.oauthClientId),
  };
}

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) data.append(name, v);
  return data;
}

let ctx: Awaited<ReturnType<typeof createApiContext>>;
let web: { id: string };
let api: { id: string };

beforeEach(async () => {
  ctx = await createApiContext();
  session.user.id = ctx.user.id;
  web = await createTestPortal({ orgId: ctx.org.id, name: "Web portal" });
  api = await createTestPortal({ orgId: ctx.org.id, name: "API portal" });
});

/** Runs the web change and the API change, each from its own start time, and returns both portals' changes. */
async function both(runWeb: () => Promise<unknown>, runApi: () => Promise<unknown>) {
  const startWeb = new Date();
  await runWeb();
  const startApi = new Date();
  await runApi();
  return { web: await changesOf(ctx.org.id, web.id, startWeb), api: await changesOf(ctx.org.id, api.id, startApi) };
}

function expectSame(result: Awaited<ReturnType<typeof both>>, types: string[]) {
  expect(result.web.events.map((e) => e.type)).toEqual(types);
  expect(result.web.events).toEqual(result.api.events);
  expect(result.web.audits).toEqual(result.api.audits);
  // The only difference: the API's rows name the OAuth app it came through.
  expect(result.web.clients.every((c) => c === null)).toBe(true);
  expect(result.api.clients.every((c) => c === ctx.client.id)).toBe(true);
}

describe("web actions and /api/v1 fire the same events with the same payloads", () => {
  it("create task (File Request with due date, assignees and reminders)", async () => {
    const due = "2031-05-01T09:00:00.000Z";
    const guestW = await createTestGuest({ orgId: ctx.org.id, portalId: web.id, email: "client-w@example.com", name: "Client" });
    const guestA = await createTestGuest({ orgId: ctx.org.id, portalId: api.id, email: "client-a@example.com", name: "Client" });
    const result = await both(
      async () =>
        expect(
          await createTaskAction(
            ctx.org.id,
            {},
            form({
              portalId: web.id,
              title: "Bank statements 2030",
              description: "All accounts",
              action_type: "File Request",
              due_date: due,
              send_reminder: "on",
              assignees: [`guest:${guestW.id}`, `member:${ctx.user.id}`],
            }),
          ),
        ).toMatchObject({ done: expect.any(Number) }),
      async () =>
        expect(
          (
            await tasksApi(ctx.token).create(api.id, {
              title: "Bank statements 2030",
              description: "All accounts",
              action_type: "File Request",
              due_date: due,
              send_reminder: true,
              assigned_guest_ids: [guestA.id],
              assigned_member_ids: [ctx.user.id],
            })
          ).status,
        ).toBe(201),
    );
    expectSame(result, ["task.created", "task.reminders_changed"]);
    expect(result.web.events[0]!.data).toEqual({
      task_id: "<id>",
      title: "Bank statements 2030",
      action_type: "File Request",
      due_date: "<time>",
      status: "Open",
    });
    // The audit row lists the assignees by type (ids shaped): one guest and one member on both sides.
    expect(result.web.audits[0]!.metadata).toMatchObject({ assignees: [{ type: "guest" }, { type: "member" }] });
  });

  it("complete task", async () => {
    const system = systemViewer(ctx.org.id);
    const { taskId: webTask } = await createTask({ viewer: system, portalId: web.id, title: "Sign the letter" });
    const { taskId: apiTask } = await createTask({ viewer: system, portalId: api.id, title: "Sign the letter" });
    const result = await both(
      async () =>
        expect(await setTaskStatusAction(ctx.org.id, {}, form({ portalId: web.id, taskId: webTask, status: "done" }))).toMatchObject({
          done: expect.any(Number),
        }),
      async () => expect((await tasksApi(ctx.token).complete(apiTask)).status).toBe(200),
    );
    expectSame(result, ["task.completed"]);
    expect(result.web.events[0]!.data).toEqual({ task_id: "<id>", action_type: "General", status: "Done", attached_files: [] });
  });

  it("invite guest", async () => {
    const result = await both(
      async () =>
        expect(await inviteGuestsAction(ctx.org.id, {}, form({ portalId: web.id, emails: " New.Client@Example.com ", name: "New Client" }))).toMatchObject({
          done: expect.any(Number),
        }),
      async () =>
        expect(
          (
            await callRoute(postGuests, {
              method: "POST",
              path: `/api/v1/portals/${api.id}/guests`,
              token: ctx.token,
              body: { email: "new.client@example.com", name: "New Client" },
              params: { portalId: api.id },
            })
          ).status,
        ).toBe(201),
    );
    expectSame(result, ["guest.invited"]);
    expect(result.web.events[0]!.data).toEqual({ guest_email: "new.client@example.com", guest_name: "New Client", invited_by: "<id>", user_id: "<id>" });
  });

  it("workflow change", async () => {
    const [, review] = await createTestWorkflowStates(ctx.org.id);
    const result = await both(
      async () =>
        expect(
          await setWorkflowStateAction(ctx.org.id, {}, form({ portalId: web.id, workflowStateId: review!.id, workflowStateName: review!.name })),
        ).toMatchObject({
          done: expect.any(Number),
        }),
      async () => expect((await portalApi(ctx.token).setWorkflow(api.id, { workflowStateId: review!.id, workflowStateName: review!.name })).status).toBe(200),
    );
    expectSame(result, ["portal.workflow_changed"]);
    expect(result.web.events[0]!.data).toEqual({ workflow_state_id: "<id>", workflow_state_name: "In review", previous_workflow_state_name: null });
  });

  it("a refused web change writes nothing, as the API's", async () => {
    const before = await changesOf(ctx.org.id, web.id, new Date(0));
    const state = await createTaskAction(
      ctx.org.id,
      {},
      form({ portalId: web.id, title: "Form", action_type: "Fill Form", fields: JSON.stringify([{ label: "Pick", kind: "select", options: ["Only one"] }]) }),
    );
    expect(state.error).toBe("fields.0.options: A single choice needs at least 2 options");
    expect(await changesOf(ctx.org.id, web.id, new Date(0))).toEqual(before);
    expect(await db.task.count({ where: { portalId: web.id } })).toBe(0);
  });
});
