import { apiRoute, json } from "@/lib/api";
import { linkHeader } from "@/lib/api/pagination";
import { createTask } from "@/lib/tasks/create-task";
import { listPortalTasks } from "@/lib/tasks/list-portal-tasks";
import { createTaskOperation, listTasksOperation } from "@/lib/api/operations/tasks";
import { toTaskResponse } from "@/lib/tasks/to-response";

// GET /api/v1/portals/{portalId}/tasks - the portal's active tasks
export const GET = apiRoute(listTasksOperation, async ({ viewer, params, query, url }) => {
  const { items, next } = await listPortalTasks({ viewer, portalId: params.portalId, limit: query.limit, cursor: query.cursor });
  return json(items.map(toTaskResponse), 200, linkHeader(url, next));
});

// POST /api/v1/portals/{portalId}/tasks - create a task
export const POST = apiRoute(createTaskOperation, async ({ viewer, params, body }) => {
  const { taskId } = await createTask({ viewer, portalId: params.portalId, ...body });
  return json({ task_id: taskId }, 201);
});
