import { lockOrganization } from "@/lib/access/organizations";
import { requireOrg } from "@/lib/access/policy";
import { actorOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import type { Tx } from "@/lib/db";
import { AppError, conflict, invalidRequest, notFound, type ErrorCode } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { isUuid } from "@/lib/ids";

// Organization settings: the admins configure the workflow states. Names are unique in
// the organization whatever their case; the order is the list order everywhere (positions 0..n-1);
// a state still used by a portal (archived portals and templates included) cannot be removed.
// No events: the spec has none for configuration; every change writes an audit row.

export const WORKFLOW_STATE_NAME_MAX = 100;
/** How many portals a refused removal names before "and N more". */
const NAMED_PORTALS = 10;

/** An error about one input field: "field: message" for the API, the message alone at a form. */
const fieldError = (code: ErrorCode, field: string, message: string) => new AppError(code, `${field}: ${message}`, {}, { field, userMessage: message });

/** The trimmed name, 1-100 characters, else 400 naming the field. */
function stateName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw fieldError("invalid_request", "name", "Enter a name for the workflow state");
  if (name.length > WORKFLOW_STATE_NAME_MAX) throw fieldError("invalid_request", "name", `Use at most ${WORKFLOW_STATE_NAME_MAX} characters`);
  return name;
}

/** 409 when another state of the organization has this name in any case. Call with the organization locked. */
async function requireFreeName(tx: Tx, orgId: string, name: string, exceptId: string | null) {
  const taken = await tx.workflowState.findFirst({
    where: { orgId, name: { equals: name, mode: "insensitive" }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { name: true },
  });
  if (taken) throw fieldError("conflict", "name", `A workflow state named ${JSON.stringify(taken.name)} already exists`);
}

async function findState(tx: Tx, orgId: string, workflowStateId: string) {
  const state = isUuid(workflowStateId) ? await tx.workflowState.findFirst({ where: { id: workflowStateId, orgId }, select: { id: true, name: true } }) : null;
  if (!state) throw notFound("Workflow state");
  return state;
}

/** Adds a state at the end of the order. */
export async function addWorkflowState({ viewer, name: rawName }: { viewer: Viewer; name: string }) {
  requireOrg(viewer, "manageWorkflowStates");
  const { orgId } = viewer;
  const name = stateName(rawName);
  return withChange(async (tx) => {
    await lockOrganization(tx, orgId);
    await requireFreeName(tx, orgId, name, null);
    const last = await tx.workflowState.aggregate({ where: { orgId }, _max: { position: true } });
    const state = await tx.workflowState.create({
      data: { orgId, name, position: (last._max.position ?? -1) + 1 },
      select: { id: true, name: true },
    });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(viewer),
      action: "workflow_state.created",
      targetType: "workflow_state",
      targetId: state.id,
      metadata: { name },
    });
    return state;
  });
}

/** Renames a state; portals keep it (they refer to it by id). The same name changes nothing. */
export async function renameWorkflowState({ viewer, workflowStateId, name: rawName }: { viewer: Viewer; workflowStateId: string; name: string }) {
  requireOrg(viewer, "manageWorkflowStates");
  const { orgId } = viewer;
  const name = stateName(rawName);
  return withChange(async (tx) => {
    await lockOrganization(tx, orgId);
    const state = await findState(tx, orgId, workflowStateId);
    if (state.name === name) return state;
    await requireFreeName(tx, orgId, name, state.id);
    await tx.workflowState.update({ where: { id: state.id, orgId }, data: { name } });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(viewer),
      action: "workflow_state.renamed",
      targetType: "workflow_state",
      targetId: state.id,
      metadata: { from: state.name, to: name },
    });
    return { id: state.id, name };
  });
}

/**
 * Puts the states in the given order: the list must hold every state of the organization exactly
 * once (anything else is 400, so a list made before another admin's change cannot drop a state).
 */
export async function reorderWorkflowStates({ viewer, workflowStateIds }: { viewer: Viewer; workflowStateIds: readonly string[] }) {
  requireOrg(viewer, "manageWorkflowStates");
  const { orgId } = viewer;
  return withChange(async (tx) => {
    await lockOrganization(tx, orgId);
    const states = await tx.workflowState.findMany({
      where: { orgId },
      orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }],
      select: { id: true },
    });
    const known = new Set(states.map((s) => s.id));
    const given = new Set(workflowStateIds);
    if (given.size !== workflowStateIds.length) throw invalidRequest("workflowStateIds: Lists a workflow state more than once");
    const unknown = workflowStateIds.filter((id) => !known.has(id));
    if (unknown.length > 0) throw invalidRequest(`workflowStateIds: Not workflow states of this organization: ${unknown.slice(0, 10).join(", ")}`);
    if (given.size !== known.size) throw invalidRequest(`workflowStateIds: List all ${known.size} workflow states of the organization, in the new order`);
    const before = states.map((s) => s.id);
    if (before.every((id, i) => id === workflowStateIds[i])) return { changed: false };
    for (const [position, id] of workflowStateIds.entries()) await tx.workflowState.update({ where: { id, orgId }, data: { position } });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(viewer),
      action: "workflow_state.reordered",
      targetType: "organization",
      targetId: orgId,
      metadata: { from: before, to: [...workflowStateIds] },
    });
    return { changed: true };
  });
}

/** "A", "B" and 3 more: the portals named in a refusal. */
function namePortals(names: string[], total: number): string {
  const quoted = names.map((n) => JSON.stringify(n)).join(", ");
  return total > names.length ? `${quoted} and ${total - names.length} more` : quoted;
}

/**
 * Removes a state that no portal uses (archived portals and templates count; permanently deleted
 * portals do not, and lose the reference). Else 409 naming up to 10 of the portals.
 */
export async function removeWorkflowState({ viewer, workflowStateId }: { viewer: Viewer; workflowStateId: string }) {
  requireOrg(viewer, "manageWorkflowStates");
  const { orgId } = viewer;
  return withChange(async (tx) => {
    await lockOrganization(tx, orgId);
    const state = await findState(tx, orgId, workflowStateId);
    const where = { orgId, workflowStateId: state.id, deletedAt: null };
    const total = await tx.portal.count({ where });
    const users = await tx.portal.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], take: NAMED_PORTALS, select: { name: true } });
    if (total > 0) {
      const portals = namePortals(
        users.map((p) => p.name),
        total,
      );
      throw conflict(
        `Workflow state ${JSON.stringify(state.name)} is used by ${total === 1 ? "the portal" : `${total} portals`} ${portals}: move them to another state first`,
      );
    }
    await tx.workflowState.delete({ where: { id: state.id, orgId } });
    await recordAudit(tx, {
      orgId,
      actor: actorOf(viewer),
      action: "workflow_state.deleted",
      targetType: "workflow_state",
      targetId: state.id,
      metadata: { name: state.name },
    });
    return { id: state.id };
  });
}
