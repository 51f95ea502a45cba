import { apiRoute, json } from "@/lib/api";
import { updateTaskOperation } from "@/lib/api/operations/tasks";
import { updateTask } from "@/lib/tasks/update-task";

// PATCH /api/v1/tasks/{taskId} - change a task (only the fields sent)
export const PATCH = apiRoute(updateTaskOperation, async ({ viewer, params, body }) => {
  await updateTask({ viewer, taskId: params.taskId, ...body });
  return json({ success: true, task_id: params.taskId });
});
