import { requireOrg } from "@/lib/access/policy";
import type { Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";

/** The organization's configured workflow states, in their configured order. */
export async function listWorkflowStates({ viewer }: { viewer: Viewer }) {
  requireOrg(viewer, "listWorkflowStates");
  return db.workflowState.findMany({
    where: { orgId: viewer.orgId },
    orderBy: [{ position: "asc" }, { createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true },
  });
}
