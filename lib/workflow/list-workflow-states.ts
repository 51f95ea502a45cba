import { db } from "@/lib/db";

/** The organization's configured workflow states, in their configured order. */
export async function listWorkflowStates({ orgId }: { orgId: string }) {
  return db.workflowState.findMany({
    where: { orgId },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true },
  });
}
