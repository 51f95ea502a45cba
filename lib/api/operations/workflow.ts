import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { WorkflowStateSchema } from "@/lib/workflow/schemas";

// GET /api/v1/workflow-states (served by app/api/v1/workflow-states/route.ts).
export const listWorkflowStatesOperation = defineOperation({
  method: "GET",
  path: "/api/v1/workflow-states",
  operationId: "listWorkflowStates",
  summary: "The organization's configured workflow states",
  description: "All of them, in the organization's configured order. Any state may follow any other.",
  tag: "Workflow states",
  scope: "portal:read",
  responses: { 200: z.array(WorkflowStateSchema) },
});
