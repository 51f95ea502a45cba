import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Tx } from "@/lib/db";
import { queueEmail } from "@/lib/email/send-email";
import { taskReturnedEmail } from "@/lib/email/templates/task-returned";
import { conflict, invalidRequest } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { keepForDigest } from "@/lib/notifications/digest";
import { modeForUser } from "@/lib/notifications/preferences";
import { guestTaskUrl, taskClients } from "@/lib/notifications/task-created";
import { markTaskOpen } from "./complete-task";
import { actorUserId, lockTaskFor } from "./task-changes";

/** The action types whose result the firm reviews: what the client sent back. */
export const REVIEWABLE = ["FileRequest", "Question", "FillForm"] as const;
const MAX_REASON = 2000;

export type ReviewInput = { viewer: Viewer; taskId: string } & ({ decision: "accept" } | { decision: "return"; reason: string });

/**
 * The firm's review of a completed File Request, Question or Form. Accept records it (the task
 * stays Done). Send back reopens the task through the one Done → Open transition (markTaskOpen,
 * as PATCH status does: audit `task.reopened`, reminders resume), keeps the reason on the task for
 * the client to read, and emails the reason to the clients the task is for, as each chose for
 * "requests"; `task.accepted` / `task.returned` audit rows record the decision. No webhook event:
 * the contract's `task.completed` fires again when the client completes it again. A task that is
 * not Done (sent back meanwhile, reopened) is a conflict, not a second decision.
 */
export async function reviewTask(input: ReviewInput): Promise<{ emailed: number }> {
  const { viewer, taskId } = input;
  const reason = input.decision === "return" ? input.reason.trim() : null;
  if (input.decision === "return") {
    if (!reason) throw invalidRequest("reason: Say what is missing or wrong, so the client knows what to send");
    if (reason.length > MAX_REASON) throw invalidRequest(`reason: Keep it under ${MAX_REASON} characters`);
  }
  const actor = actorOf(viewer);
  return withChange(async (tx) => {
    const task = await lockTaskFor(tx, viewer, taskId, "manageTasks");
    if (!(REVIEWABLE as readonly string[]).includes(task.actionType)) throw invalidRequest("taskId: Only File Requests, Questions and Forms are reviewed");
    if (task.status !== "Done") throw conflict("The task is not completed: there is nothing to review");
    const base = { orgId: viewer.orgId, portalId: task.portalId, actor, targetType: "task", targetId: task.id };
    if (reason === null) {
      if (task.review === "accepted") return { emailed: 0 };
      await tx.task.update({
        where: { id: task.id },
        data: { review: "accepted", reviewNote: null, reviewedAt: new Date(), reviewedById: actorUserId(actor) },
      });
      await recordAudit(tx, { ...base, action: "task.accepted" });
      return { emailed: 0 };
    }
    await markTaskOpen(tx, { orgId: viewer.orgId, taskId: task.id, actor });
    await tx.task.update({
      where: { id: task.id },
      data: { review: "returned", reviewNote: reason, reviewedAt: new Date(), reviewedById: actorUserId(actor) },
    });
    await recordAudit(tx, { ...base, action: "task.returned", metadata: { reason } });
    return { emailed: await tellClients(tx, { orgId: viewer.orgId, task, reason }) };
  });
}

async function tellClients(
  tx: Tx,
  { orgId, task, reason }: { orgId: string; task: { id: string; portalId: string; title: string; actionType: string }; reason: string },
): Promise<number> {
  const assignees = await tx.taskAssignee.findMany({ where: { taskId: task.id }, select: { userId: true, type: true } });
  const clients = await taskClients(tx, { orgId, portalId: task.portalId, assignees });
  if (clients.length === 0) return 0;
  const portal = await tx.portal.findUniqueOrThrow({ where: { id: task.portalId }, select: { name: true, org: { select: { name: true } } } });
  const taskUrl = guestTaskUrl(orgId, task.portalId, task);
  const content = taskReturnedEmail({ orgName: portal.org.name, portalName: portal.name, taskTitle: task.title, reason, taskUrl });
  let emailed = 0;
  for (const userId of clients) {
    const mode = await modeForUser(userId, "requests");
    if (mode === "off") continue;
    if (mode === "digest") {
      await keepForDigest({ userId, orgId, kind: "requests", subject: content.subject, text: content.text, url: taskUrl }, tx);
      continue;
    }
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
    await queueEmail(tx, { orgId, to: user.email, template: "task-returned", ...content });
    emailed++;
  }
  return emailed;
}
