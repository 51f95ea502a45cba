import { recordAudit } from "@/lib/audit/record-audit";
import type { Actor } from "@/lib/access/viewer";
import type { Tx } from "@/lib/db";
import { recordEvent } from "@/lib/events/record-event";
import { resolveWorkflowState } from "./resolve-workflow-state";

/**
 * Moves a locked portal to a configured workflow state (any state may follow any other, D13):
 * the pair must match (400), and only a real change writes the row, the audit row and
 * `portal.workflow_changed`. Returns whether it changed.
 */
export async function changeWorkflowState(
  tx: Tx,
  {
    orgId,
    actor,
    portal,
    workflowStateId,
    workflowStateName,
  }: {
    orgId: string;
    actor: Actor;
    portal: { id: string; workflowState: { id: string; name: string } | null };
    workflowStateId: string;
    workflowStateName: string;
  },
): Promise<boolean> {
  const state = await resolveWorkflowState(tx, { orgId, workflowStateId, workflowStateName });
  const previous = portal.workflowState;
  if (previous?.id === state.id) return false;
  await tx.portal.update({ where: { id: portal.id, orgId }, data: { workflowStateId: state.id } });
  await recordAudit(tx, {
    orgId,
    portalId: portal.id,
    actor,
    action: "portal.workflow_changed",
    targetType: "portal",
    targetId: portal.id,
    metadata: { from: previous?.name ?? null, to: state.name, workflow_state_id: state.id },
  });
  await recordEvent(tx, {
    orgId,
    portalId: portal.id,
    type: "portal.workflow_changed",
    data: { workflow_state_id: state.id, workflow_state_name: state.name, previous_workflow_state_name: previous?.name ?? null },
  });
  return true;
}
