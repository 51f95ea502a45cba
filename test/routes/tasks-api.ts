import { POST as postComplete } from "@/app/api/v1/tasks/[taskId]/complete/route";
import { PATCH as patchTask } from "@/app/api/v1/tasks/[taskId]/route";
import { GET as getList, POST as postCreate } from "@/app/api/v1/portals/[portalId]/tasks/route";
import { callRoute, type CallResult } from "@/test/routes/call-route";
import { db } from "@/lib/db";
import type { TaskJson } from "@/lib/tasks/schemas";

// The task endpoints as an API client calls them, for integration tests.

type ErrorJson = { error: string; error_description: string };
type Result<T> = Promise<CallResult<T & Partial<ErrorJson>>>;
export type TaskOut = Omit<TaskJson, "due_date" | "created_at" | "updated_at" | "completed_at"> & {
  due_date: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
};

export function tasksApi(token: string) {
  return {
    list: (portalId: string, query = ""): Result<TaskOut[]> =>
      callRoute(getList, { path: `/api/v1/portals/${portalId}/tasks${query}`, token, params: { portalId } }),
    create: (portalId: string, body: unknown): Result<{ task_id: string }> =>
      callRoute(postCreate, { method: "POST", path: `/api/v1/portals/${portalId}/tasks`, token, body, params: { portalId } }),
    update: (taskId: string, body: unknown): Result<{ success: boolean; task_id: string }> =>
      callRoute(patchTask, { method: "PATCH", path: `/api/v1/tasks/${taskId}`, token, body, params: { taskId } }),
    complete: (taskId: string): Result<{ success: boolean; task_id: string }> =>
      callRoute(postComplete, { method: "POST", path: `/api/v1/tasks/${taskId}/complete`, token, params: { taskId } }),
  };
}

export const eventsOf = (orgId: string, type: string) => db.event.findMany({ where: { orgId, type }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
