import { apiRoute, json } from "@/lib/api";
import { completeTask } from "@/lib/tasks/complete-task";
import { completeTaskOperation } from "@/lib/api/operations/tasks";

// POST /api/v1/tasks/{taskId}/complete - mark a task Done (a Done task stays Done, nothing fires)
export const POST = apiRoute(completeTaskOperation, async ({ viewer, params }) => {
  await completeTask({ viewer, taskId: params.taskId });
  return json({ success: true, task_id: params.taskId });
});
