import type { Tx } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/**
 * The configured state named by an id and a name that must be one pair (D13), else 400. The name
 * is compared exactly, as GET /api/v1/workflow-states spells it.
 */
export async function resolveWorkflowState(
  tx: Tx,
  { orgId, workflowStateId, workflowStateName }: { orgId: string; workflowStateId: string; workflowStateName: string },
): Promise<{ id: string; name: string }> {
  const state = isUuid(workflowStateId) ? await tx.workflowState.findFirst({ where: { id: workflowStateId, orgId }, select: { id: true, name: true } }) : null;
  if (!state) throw invalidRequest("workflowStateId: Not a workflow state of this organization");
  if (state.name !== workflowStateName) {
    throw invalidRequest(`workflowStateName: Does not match workflow state ${state.id} (its name is ${JSON.stringify(state.name)})`);
  }
  return state;
}
