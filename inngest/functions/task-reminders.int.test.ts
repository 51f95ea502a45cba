import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it, onTestFinished } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { taskReminders } from "@/inngest/functions/task-reminders";
import { resetEnvForTests } from "@/lib/env";
import { db } from "@/lib/db";
import { portalWebUrl } from "@/lib/links";
import { completeTask } from "@/lib/tasks/complete-task";
import { createTask } from "@/lib/tasks/create-task";
import { updateTask } from "@/lib/tasks/update-task";
import { formatDateTime } from "@/lib/time/format";
import { createApiContext, createTestGuest, createTestPortal } from "@/lib/test-support/fixtures";

// The reminder run driven by @inngest/test: sleeps mocked (they return at once, and a handler
// can change the task "while the run sleeps"), sends real, against the database.

const DAY = 24 * 60 * 60 * 1000;
const LABELS = ["14d-before", "7d-before", "3d-before", "due", "7d-after"];

async function setup() {
  const ctx = await createApiContext();
  const portal = await createTestPortal({ orgId: ctx.org.id, name: "Smith & Co <2026>" });
  const guestA = await createTestGuest({ orgId: ctx.org.id, portalId: portal.id });
  const guestB = await createTestGuest({ orgId: ctx.org.id, portalId: portal.id });
  const viewer = await getUserViewer(ctx.user.id, ctx.org.id);
  return { ...ctx, portal, guestA, guestB, viewer };
}

/** The latest task.reminders_changed of the task, as the relay hands it to Inngest. */
async function lastChange(taskId: string) {
  const rows = await db.event.findMany({ where: { type: "task.reminders_changed" }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
  const row = rows.find((r) => (r.data as { task_id: string }).task_id === taskId);
  if (!row) throw new Error("no task.reminders_changed recorded");
  return { name: "task.reminders_changed", data: { event_id: row.id, org_id: row.orgId, portal_id: row.portalId, ...(row.data as object) } };
}

function run(event: Awaited<ReturnType<typeof lastChange>>, during: Partial<Record<string, () => unknown>> = {}) {
  return new InngestTestEngine({
    function: taskReminders,
    events: [event as never],
    steps: [
      ...LABELS.map((label) => ({ id: `sleep-until-${label}`, handler: async () => void (await during[label]?.()) })),
      // The wake-ups on the way to a point more than 7 days ahead return at once too.
      ...LABELS.flatMap((label) => [1, 2, 3].map((n) => ({ id: `wait-${label}-${n}`, handler: () => undefined }))),
    ],
  }).execute();
}

function sleeps(ctx: { step: { sleepUntil: { mock: { calls: unknown[][] } } } }) {
  return ctx.step.sleepUntil.mock.calls.map((c) => [c[0], c[1]]);
}

const reminderLog = (taskId: string) => db.taskReminder.findMany({ where: { taskId }, orderBy: { scheduledFor: "asc" } });

describe("task-reminders", () => {
  it("is started and cancelled by the task's task.reminders_changed", () => {
    const [config] = taskReminders["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config).toMatchObject({
      id: "client-portals-task-reminders",
      triggers: [{ event: "task.reminders_changed" }],
      cancel: [{ event: "task.reminders_changed", if: "async.data.task_id == event.data.task_id" }],
    });
  });

  it("with a due date 20 days ahead, sleeps until the five points in order and emails the assigned guest at each", async () => {
    const s = await setup();
    const due = new Date(Date.now() + 20 * DAY);
    const { taskId } = await createTask({
      viewer: s.viewer,
      portalId: s.portal.id,
      title: "Upload the <signed> contract",
      due_date: due.toISOString(),
      send_reminder: true,
      assigned_guest_ids: [s.guestA.id],
    });
    const { result, ctx } = await run(await lastChange(taskId));

    const points = [-14, -7, -3, 0, 7].map((d) => new Date(due.getTime() + d * DAY).toISOString());
    expect(sleeps(ctx)).toEqual(LABELS.map((label, i) => [`sleep-until-${label}`, points[i]]));
    expect(result).toEqual({ sent: [-14, -7, -3, 0, 7], stopped: null });
    const log = await reminderLog(taskId);
    expect(log.map((r) => [r.offsetDays, r.scheduledFor.toISOString(), r.status, r.recipients])).toEqual(
      [-14, -7, -3, 0, 7].map((d, i) => [d, points[i], "sent", [s.guestA.email]]),
    );
    const emails = await db.outboundEmail.findMany({ where: { orgId: s.org.id, template: "reminder" }, orderBy: { createdAt: "asc" } });
    expect(emails.map((e) => e.to)).toEqual(Array(5).fill(s.guestA.email));
    expect(emails.map((e) => e.subject)).toEqual([
      'Reminder: "Upload the <signed> contract" is due in 14 days',
      'Reminder: "Upload the <signed> contract" is due in 7 days',
      'Reminder: "Upload the <signed> contract" is due in 3 days',
      'Reminder: "Upload the <signed> contract" is due today',
      'Reminder: "Upload the <signed> contract" was due 7 days ago',
    ]);
    expect(emails[0]?.text).toContain(portalWebUrl(s.org.id, s.portal.id));
    // In the guest's zone: none of their own, so the organization's default (UTC).
    expect(emails[0]?.text).toContain(`Due: ${formatDateTime(due, "UTC")}`);
    expect(emails[0]?.text).not.toContain(" UTC");
    expect(emails[0]?.html).toContain("Upload the &lt;signed&gt; contract");
    expect(emails[0]?.html).toContain("Smith &amp; Co &lt;2026&gt;");

    // The same schedule handed over again (a duplicate run) sends nothing twice.
    const again = await run(await lastChange(taskId));
    expect(again.result).toEqual({ sent: [-14, -7, -3, 0, 7], stopped: null });
    expect(await db.outboundEmail.count({ where: { orgId: s.org.id, template: "reminder" } })).toBe(5);
  });

  it("with a due date 5 days ahead, skips the 14- and 7-day points; with no guest assigned, every portal guest is reminded", async () => {
    const s = await setup();
    const due = new Date(Date.now() + 5 * DAY);
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Questionnaire", due_date: due.toISOString(), send_reminder: true });
    const { result, ctx } = await run(await lastChange(taskId));
    expect(sleeps(ctx).map(([id]) => id)).toEqual(["sleep-until-3d-before", "sleep-until-due", "sleep-until-7d-after"]);
    expect(result).toEqual({ sent: [-3, 0, 7], stopped: null });
    const log = await reminderLog(taskId);
    expect(log.map((r) => r.offsetDays)).toEqual([-3, 0, 7]);
    expect([...(log[0]?.recipients ?? [])].sort()).toEqual([s.guestA.email, s.guestB.email].sort());
  });

  it("completing the task cancels the remaining reminders", async () => {
    const s = await setup();
    const due = new Date(Date.now() + 20 * DAY);
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "T", due_date: due.toISOString(), send_reminder: true });
    const { result, ctx } = await run(await lastChange(taskId), {
      "3d-before": () => completeTask({ viewer: s.viewer, taskId }),
    });
    expect(result).toEqual({ sent: [-14, -7], stopped: "not_open" });
    expect(sleeps(ctx)).toHaveLength(3);
    expect((await reminderLog(taskId)).map((r) => r.offsetDays)).toEqual([-14, -7]);

    // The completion recorded the schedule's end: its run (which also cancels the old one) starts nothing.
    const ended = await lastChange(taskId);
    expect(ended.data).toMatchObject({ status: "Done", send_reminder: true });
    const next = await run(ended);
    expect(next.result).toEqual({ sent: [], stopped: "no_reminders" });
    expect(sleeps(next.ctx)).toEqual([]);
  });

  it("a task due in 500 days reaches its first point through sleeps of at most 7 days, re-checking the task at each", async () => {
    const s = await setup();
    const due = new Date(Date.now() + 500 * DAY);
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Far", due_date: due.toISOString(), send_reminder: true });
    const waits = Array.from({ length: 69 }, (_, i) => `wait-14d-before-${i + 1}`);
    const engine = new InngestTestEngine({
      function: taskReminders,
      events: [(await lastChange(taskId)) as never],
      steps: [
        ...[...waits, ...LABELS.map((l) => `sleep-until-${l}`)].map((id) => ({ id, handler: () => undefined })),
        // Completed while the run sleeps far from any point: the next check ends it.
        { id: "wait-14d-before-3", handler: () => completeTask({ viewer: s.viewer, taskId }).then(() => undefined) },
      ],
    });
    const { result, ctx } = await engine.execute();
    expect(result).toEqual({ sent: [], stopped: "not_open" });
    const calls = sleeps(ctx) as Array<[string, string]>;
    expect(calls.map((c) => c[0])).toEqual(waits.slice(0, 3));
    const times = [Date.now() - 60_000, ...calls.map((c) => Date.parse(c[1]))];
    expect(Math.max(...times.slice(2).map((t, i) => t - times[i + 1]!))).toBe(7 * DAY);
    expect(await reminderLog(taskId)).toEqual([]);
  });

  it("a due date beyond a run's step budget continues in a fresh run instead of passing 1000 steps", async () => {
    // The budget (300 by default) lowered, as replaying 600 steps in @inngest/test takes a minute.
    const MAX_WAKES_PER_RUN = 12;
    process.env.INNGEST_MAX_WAKES_PER_RUN = String(MAX_WAKES_PER_RUN);
    resetEnvForTests();
    onTestFinished(() => {
      delete process.env.INNGEST_MAX_WAKES_PER_RUN;
      resetEnvForTests();
    });
    const s = await setup();
    const due = new Date(Date.now() + (MAX_WAKES_PER_RUN * 7 + 30) * DAY);
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Very far", due_date: due.toISOString(), send_reminder: true });
    const change = await lastChange(taskId);
    const waits = Array.from({ length: MAX_WAKES_PER_RUN + 1 }, (_, i) => ({ id: `wait-14d-before-${i + 1}`, handler: () => undefined }));
    const steps = [...waits, { id: "continue", handler: () => ({ ids: ["continued"] }) }];
    const { result, ctx } = await new InngestTestEngine({ function: taskReminders, events: [change as never], steps }).execute();
    expect(result).toEqual({ sent: [], stopped: "continued" });
    expect(sleeps(ctx)).toHaveLength(MAX_WAKES_PER_RUN);
    const sendEvent = (ctx.step.sendEvent as unknown as { mock: { calls: unknown[][] } }).mock.calls;
    expect(sendEvent).toHaveLength(1);
    expect(sendEvent[0]?.[1]).toMatchObject({ name: "task.reminders_changed", data: change.data });
  });

  it("turning reminders off stops the run; a changed due date reschedules", async () => {
    const s = await setup();
    const due = new Date(Date.now() + 20 * DAY);
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "T", due_date: due.toISOString(), send_reminder: true });
    const first = await lastChange(taskId);
    const moved = new Date(due.getTime() + 10 * DAY);
    const { result } = await run(first, {
      "7d-before": () => updateTask({ viewer: s.viewer, taskId, due_date: moved.toISOString() }),
    });
    expect(result).toEqual({ sent: [-14], stopped: "due_date_changed" });

    const rescheduled = await lastChange(taskId);
    expect(rescheduled.data).toMatchObject({ due_date: moved.toISOString(), send_reminder: true, status: "Open" });
    const second = await run(rescheduled, {
      "3d-before": () => updateTask({ viewer: s.viewer, taskId, send_reminder: false }),
    });
    const points = [-14, -7, -3].map((d) => new Date(moved.getTime() + d * DAY).toISOString());
    // 16 days to the first point: two 7-day wake-ups on the way, then the points.
    expect(sleeps(second.ctx).map((c) => c[0])).toEqual(["wait-14d-before-1", "wait-14d-before-2", ...LABELS.slice(0, 3).map((l) => `sleep-until-${l}`)]);
    expect(sleeps(second.ctx).slice(2)).toEqual(LABELS.slice(0, 3).map((label, i) => [`sleep-until-${label}`, points[i]]));
    expect(second.result).toEqual({ sent: [-14, -7], stopped: "reminders_off" });
    expect((await reminderLog(taskId)).map((r) => [r.offsetDays, r.scheduledFor.toISOString()])).toEqual([
      [-14, new Date(due.getTime() - 14 * DAY).toISOString()],
      [-14, points[0]],
      [-7, points[1]],
    ]);
    expect((await lastChange(taskId)).data).toMatchObject({ send_reminder: false });
  });
});
