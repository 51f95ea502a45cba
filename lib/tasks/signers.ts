import { requirePortal, taskWhere } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { db, type Tx } from "@/lib/db";
import { AppError, conflict, invalidField, notFound } from "@/lib/errors";
import type { SigningOrder } from "@/lib/generated/prisma/client";
import { isUuid } from "@/lib/ids";
import { lockTaskFor, touchPortal } from "./task-changes";

// The named signers of a Sign Document task: guests of the task's portal and members of the
// organization, in signing order, signing one after another (sequential) or in any order
// (parallel). Without signers a Sign Document keeps the single signature of the contract: its
// assignee (or any guest of the portal, or a member) signs once and the task completes.

const MAX_SIGNERS = 20;
const SIGNING_ORDERS = ["sequential", "parallel"] as const;

export interface SignerState {
  userId: string;
  position: number;
  type: "guest" | "member";
  name: string | null;
  email: string;
  signedAt: Date | null;
}

/** Whose turn it is: sequential, the first signer (by position) who has not signed; parallel, every one who has not. */
export function signersToSign<T extends Pick<SignerState, "position" | "signedAt">>(signers: T[], order: SigningOrder): T[] {
  const open = [...signers].sort((a, b) => a.position - b.position).filter((s) => !s.signedAt);
  return order === "sequential" ? open.slice(0, 1) : open;
}

/** Each signer's state for the firm's task page: signed, to sign now, or waiting for an earlier signer. */
export function signerStatus(signer: SignerState, signers: SignerState[], order: SigningOrder): "signed" | "to_sign" | "waiting" {
  if (signer.signedAt) return "signed";
  return signersToSign(signers, order).some((s) => s.userId === signer.userId) ? "to_sign" : "waiting";
}

/** The signers of a task in order (no access check: callers have loaded the task for the viewer). */
export async function loadSigners(client: Pick<Tx, "taskSigner">, taskId: string): Promise<SignerState[]> {
  return client.taskSigner.findMany({
    where: { taskId },
    orderBy: { position: "asc" },
    select: { userId: true, position: true, type: true, name: true, email: true, signedAt: true },
  });
}

/** 400 naming the position in the API (`signers.1`) and the `signers` field in the web form. */
const signerError = (i: number, message: string) => new AppError("invalid_request", `signers.${i}: ${message}`, {}, { field: "signers", userMessage: message });

/** Each id a guest of the portal or a member of the organization (a member who is also a guest signs as a member); 400 naming the first other. */
async function resolveSigners(tx: Tx, { orgId, portalId, userIds }: { orgId: string; portalId: string; userIds: string[] }) {
  const ids = userIds.filter(isUuid);
  const [members, guests] = await Promise.all([
    tx.membership.findMany({ where: { orgId, userId: { in: ids } }, select: { userId: true, user: { select: { name: true, email: true } } } }),
    tx.portalGuest.findMany({ where: { orgId, portalId, userId: { in: ids } }, select: { userId: true, user: { select: { name: true, email: true } } } }),
  ]);
  return userIds.map((userId, i) => {
    const member = members.find((m) => m.userId === userId);
    const guest = guests.find((g) => g.userId === userId);
    const found = member ?? guest;
    if (!found) throw signerError(i, `${userId} is not a guest of this portal or a member of this organization`);
    return { userId, position: i, type: member ? ("member" as const) : ("guest" as const), name: found.user.name, email: found.user.email };
  });
}

/**
 * Names the signers of a Sign Document task (members and admins, `manageTasks`) in the order they
 * sign, and whether that order binds (`sequential`) or not (`parallel`). An empty list goes back
 * to the single signer. 400 naming `signers.<i>` for an id that is neither a guest of the portal
 * nor a member, a repeated id or more than MAX_SIGNERS; 409 once someone has signed (the signed
 * copy already carries their signature).
 */
export async function setSigners({
  viewer,
  taskId,
  signers,
  order,
}: {
  viewer: Viewer;
  taskId: string;
  signers: string[];
  order: SigningOrder;
}): Promise<SignerState[]> {
  if (!SIGNING_ORDERS.includes(order)) throw invalidField("signing_order", 'Use "sequential" or "parallel"');
  if (signers.length > MAX_SIGNERS) throw invalidField("signers", `At most ${MAX_SIGNERS} signers`);
  const repeated = signers.findIndex((id, i) => signers.indexOf(id) !== i);
  if (repeated >= 0) throw signerError(repeated, `${signers[repeated]} is named twice`);
  // Inside the caller's transaction when there is one (task create and PATCH): all or nothing.
  return db.$transaction(async (tx) => {
    const task = await lockTaskFor(tx, viewer, taskId, "manageTasks");
    if (task.actionType !== "SignDocument") throw invalidField("signers", "Only a Sign Document task has signers");
    if (task.status === "Done" || task.signedFileId) throw conflict("Signing has started: the signers can no longer change; ask again with a new task");
    const resolved = await resolveSigners(tx, { orgId: viewer.orgId, portalId: task.portalId, userIds: signers });
    await tx.taskSigner.deleteMany({ where: { taskId: task.id } });
    if (resolved.length > 0) await tx.taskSigner.createMany({ data: resolved.map((s) => ({ ...s, taskId: task.id })) });
    await tx.task.update({ where: { id: task.id }, data: { signingOrder: order } });
    await touchPortal(tx, { orgId: viewer.orgId, portalId: task.portalId });
    await recordAudit(tx, {
      orgId: viewer.orgId,
      portalId: task.portalId,
      actor: actorOf(viewer),
      action: "task.signers_set",
      targetType: "task",
      targetId: task.id,
      metadata: { signing_order: order, signers: resolved.map((s) => ({ user_id: s.userId, type: s.type })) },
    });
    return resolved.map((s) => ({ ...s, signedAt: null }));
  });
}

/** The signers of a task with their state, for whoever may view the portal's tasks (404 otherwise); empty for a single-signer task. */
export async function getSigners({ viewer, portalId, taskId }: { viewer: Viewer; portalId: string; taskId: string }) {
  requirePortal(viewer, portalId, "viewTasks", "Task");
  const task = isUuid(taskId)
    ? await db.task.findFirst({
        where: { AND: [taskWhere(viewer, "viewTasks"), { id: taskId, portalId }] },
        select: { id: true, signingOrder: true, signedFileId: true },
      })
    : null;
  if (!task) throw notFound("Task");
  const signers = await loadSigners(db, task.id);
  return {
    order: task.signingOrder,
    /** Someone has signed: the document and the signers no longer change. */
    started: task.signedFileId !== null,
    signers: signers.map((s) => ({ ...s, status: signerStatus(s, signers, task.signingOrder) })),
  };
}
