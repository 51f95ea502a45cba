import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { listPortalAudit } from "@/lib/audit/list-audit";
import { db } from "@/lib/db";
import { getGuestPortalView } from "@/lib/guests/guest-view";
import { setNotificationPreferences } from "@/lib/notifications/preferences";
import { createTestGuest } from "@/lib/test-support/fixtures";
import { createForeignAdmin, createMemberContext, outcomeOf } from "@/lib/test-support/outcome";
import { removeObjectsAfterEach, uploadForTask } from "@/lib/test-support/storage";
import { completeTask } from "./complete-task";
import { createTask } from "./create-task";
import { reviewTask } from "./review-task";
import { answerQuestion } from "./task-answers";
import { updateTask } from "./update-task";

// The firm's review of what a client sent, against PostgreSQL and S3: sent back with a reason
// (the task reopens through the one Done → Open transition, the client is emailed, history has
// it), completed again by another upload (task.completed fires again), then accepted.

const cleanUp = removeObjectsAfterEach();

async function setup() {
  const ctx = await createMemberContext({ name: "Mia Member" });
  cleanUp(ctx.org.id);
  const guestUser = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id, name: "Gina Guest" });
  const guest = await getUserViewer(guestUser.id, ctx.org.id);
  const events = (type: string) => db.event.findMany({ where: { orgId: ctx.org.id, type }, orderBy: { createdAt: "asc" } });
  return { ...ctx, guestUser, guest, events };
}

describe("reviewTask", () => {
  it("send back: reopens the File Request, emails the client the reason, records it; the next upload completes it again; accept", async () => {
    const s = await setup();
    const { taskId } = await createTask({
      viewer: s.viewer,
      portalId: s.portal.id,
      title: "Bank statement",
      action_type: "File Request",
      send_reminder: true,
      due_date: "2027-01-10T00:00:00Z",
    });
    await uploadForTask(s.guest, s.portal.id, taskId, "february.txt");
    await uploadForTask(s.guest, s.portal.id, taskId, "february-page-2.txt");
    expect(await s.events("task.completed")).toHaveLength(1);

    expect(await reviewTask({ viewer: s.viewer, taskId, decision: "return", reason: "  The statement is for the wrong month: please send March.  " })).toEqual({
      emailed: 1,
    });
    const task = await db.task.findUniqueOrThrow({ where: { id: taskId } });
    expect(task).toMatchObject({
      status: "Open",
      completedAt: null,
      review: "returned",
      reviewNote: "The statement is for the wrong month: please send March.",
      reviewedById: s.member.id,
    });
    const [mail, ...others] = await db.outboundEmail.findMany({ where: { orgId: s.org.id, template: "task-returned" } });
    expect(others).toEqual([]);
    expect(mail).toMatchObject({ to: s.guestUser.email, subject: `${s.org.name} sent back: Bank statement` });
    expect(mail!.text).toContain("The statement is for the wrong month: please send March.");
    expect(mail!.text).toContain(`/client/${s.portal.id}#task-${taskId}`);
    const history = await listPortalAudit({ viewer: s.viewer, portalId: s.portal.id });
    const actions = history.items.filter((i) => i.targetId === taskId).map((i) => i.action);
    expect(actions).toEqual(expect.arrayContaining(["task.reopened", "task.returned"]));
    expect(history.items.find((i) => i.action === "task.returned")!.metadata).toEqual({ reason: "The statement is for the wrong month: please send March." });
    // Reminders resume, as a reopening through PATCH does.
    const changes = await s.events("task.reminders_changed");
    expect((changes.at(-1)!.data as { status: string }).status).toBe("Open");

    // The client sees why, and sends again: the contract's task.completed fires for the new completion.
    const view = await getGuestPortalView({ viewer: s.guest, portalId: s.portal.id });
    expect(view.openTasks.find((t) => t.id === taskId)).toMatchObject({
      review: "returned",
      reviewNote: "The statement is for the wrong month: please send March.",
    });
    await uploadForTask(s.guest, s.portal.id, taskId, "march.txt");
    const completed = await s.events("task.completed");
    expect(completed).toHaveLength(2);
    expect((completed[1]!.data as { attached_files: { name: string }[] }).attached_files.map((f) => f.name)).toEqual([
      "february.txt",
      "february-page-2.txt",
      "march.txt",
    ]);
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Done", review: null, reviewNote: null });

    expect(await reviewTask({ viewer: s.viewer, taskId, decision: "accept" })).toEqual({ emailed: 0 });
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Done", review: "accepted" });
    expect((await listPortalAudit({ viewer: s.viewer, portalId: s.portal.id })).items.filter((i) => i.action === "task.accepted")).toHaveLength(1);
    // Accepting twice records nothing more.
    await reviewTask({ viewer: s.viewer, taskId, decision: "accept" });
    expect(await db.auditLog.count({ where: { orgId: s.org.id, action: "task.accepted" } })).toBe(1);
    // No new webhook event type: only the contract's.
    const types = new Set((await db.event.findMany({ where: { orgId: s.org.id } })).map((e) => e.type));
    expect([...types].sort()).toEqual(["file.uploaded", "task.completed", "task.created", "task.reminders_changed"]);
  });

  it("a Question sent back; the client who turned request emails off gets none; a reopen clears the review", async () => {
    const s = await setup();
    await setNotificationPreferences(s.guestUser.id, {
      uploads: "immediately",
      taskCompletions: "immediately",
      reminders: "immediately",
      invitations: "immediately",
      requests: "off",
      messages: "immediately",
    });
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Which bank?", action_type: "Question?" });
    await answerQuestion({ viewer: s.guest, taskId, text: "The blue one" });
    expect(await reviewTask({ viewer: s.viewer, taskId, decision: "return", reason: "Which branch?" })).toEqual({ emailed: 0 });
    expect(await db.outboundEmail.count({ where: { orgId: s.org.id, template: "task-returned" } })).toBe(0);
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Open", review: "returned" });
    await completeTask({ viewer: s.viewer, taskId });
    await reviewTask({ viewer: s.viewer, taskId, decision: "accept" });
    await updateTask({ viewer: s.viewer, taskId, status: "open" });
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Open", review: null, reviewedAt: null });
  });

  it("refuses what is not reviewable, with the spec's errors and nothing changed", async () => {
    const s = await setup();
    const open = (await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Open one", action_type: "File Request" })).taskId;
    const general = (await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "General one" })).taskId;
    await completeTask({ viewer: s.viewer, taskId: general });
    const done = (await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Done one", action_type: "Question?" })).taskId;
    await completeTask({ viewer: s.viewer, taskId: done });
    expect(await outcomeOf(reviewTask({ viewer: s.viewer, taskId: open, decision: "accept" }))).toBe(
      "conflict: The task is not completed: there is nothing to review",
    );
    expect(await outcomeOf(reviewTask({ viewer: s.viewer, taskId: general, decision: "accept" }))).toBe(
      "invalid_request: taskId: Only File Requests, Questions and Forms are reviewed",
    );
    expect(await outcomeOf(reviewTask({ viewer: s.viewer, taskId: done, decision: "return", reason: "   " }))).toMatch(/^invalid_request: reason: /);
    expect(await outcomeOf(reviewTask({ viewer: s.viewer, taskId: done, decision: "return", reason: "x".repeat(2001) }))).toMatch(/^invalid_request: reason: /);
    expect(await outcomeOf(reviewTask({ viewer: s.guest, taskId: done, decision: "accept" }))).toMatch(/^forbidden/);
    expect(await outcomeOf(reviewTask({ viewer: await createForeignAdmin(), taskId: done, decision: "accept" }))).toBe("not_found: Task not found");
    expect(await outcomeOf(reviewTask({ viewer: s.viewer, taskId: "not-a-uuid", decision: "accept" }))).toBe("not_found: Task not found");
    expect(await db.task.findUniqueOrThrow({ where: { id: done } })).toMatchObject({ status: "Done", review: null });
  });

  it("concurrent send-backs: one reopens and emails, the others conflict; never a 500", async () => {
    const s = await setup();
    const { taskId } = await createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Payslips", action_type: "File Request" });
    await uploadForTask(s.guest, s.portal.id, taskId, "payslip.txt");
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => outcomeOf(reviewTask({ viewer: s.viewer, taskId, decision: "return", reason: "Missing April" }))),
    );
    expect(outcomes.sort()).toEqual([
      "conflict: The task is not completed: there is nothing to review",
      "conflict: The task is not completed: there is nothing to review",
      "conflict: The task is not completed: there is nothing to review",
      "ok",
    ]);
    expect(await db.outboundEmail.count({ where: { orgId: s.org.id, template: "task-returned" } })).toBe(1);
    expect(await db.auditLog.count({ where: { orgId: s.org.id, action: "task.returned" } })).toBe(1);
  });
});
