import { z } from "zod";

// The WorkflowState record (spec section 2) and the body of POST /portals/{portalId}/workflow.

export const WorkflowStateSchema = z
  .object({
    id: z.string().meta({ format: "uuid" }),
    name: z.string(),
  })
  .meta({ id: "WorkflowState", description: "A workflow state configured by the organization" });

/** Both fields, as one pair from GET /api/v1/workflow-states (D13). */
export const SetWorkflowStateBodySchema = z.object({
  workflowStateId: z.string().meta({ description: "Id from GET /api/v1/workflow-states" }),
  workflowStateName: z.string().meta({ description: "The name of that same state" }),
});
