import { apiRoute, json } from "@/lib/api";
import { listWorkflowStates } from "@/lib/workflow/list-workflow-states";
import { listWorkflowStatesOperation } from "@/lib/api/operations/workflow";

// GET /api/v1/workflow-states - the organization's configured states
export const GET = apiRoute(listWorkflowStatesOperation, async ({ viewer }) => json(await listWorkflowStates({ viewer })));
