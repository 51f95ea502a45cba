import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import {
  CreateTaskBodySchema,
  ListTasksQuerySchema,
  PortalTasksParamsSchema,
  TaskChangedSchema,
  TaskCreatedSchema,
  TaskParamsSchema,
  TaskSchema,
  UpdateTaskBodySchema,
} from "@/lib/tasks/schemas";

// The task operations of spec section 4, served by app/api/v1/portals/[portalId]/tasks/route.ts
// and app/api/v1/tasks/[taskId]/**/route.ts.

export const listTasksOperation = defineOperation({
  method: "GET",
  path: "/api/v1/portals/{portalId}/tasks",
  operationId: "listTasks",
  summary: "List a portal's tasks with their assignees",
  description: "Active (not deleted) tasks in creation order, Open and Done, with assignees, reminder flag and attached file ids.",
  tag: "Tasks",
  scope: "task:read",
  params: PortalTasksParamsSchema,
  query: ListTasksQuerySchema,
  responses: { 200: z.array(TaskSchema) },
});

export const createTaskOperation = defineOperation({
  method: "POST",
  path: "/api/v1/portals/{portalId}/tasks",
  operationId: "createTask",
  summary: "Create a task in a portal",
  description:
    "`assigned_guest_ids` must be guests of this portal and `assigned_member_ids` members of the organization; any other id is 400 naming it. Names and emails are resolved by the service. `send_reminder` needs `due_date`: guests are emailed 14, 7, 3 and 0 days before it and 7 days after, while the task is Open. Fires `task.created`.",
  tag: "Tasks",
  scope: "task:write",
  params: PortalTasksParamsSchema,
  body: CreateTaskBodySchema,
  responses: { 201: TaskCreatedSchema },
});

export const updateTaskOperation = defineOperation({
  method: "PATCH",
  path: "/api/v1/tasks/{taskId}",
  operationId: "updateTask",
  summary: "Change a task: title, description, status, due date, reminders",
  description:
    "Only the fields sent change. `status` `done`, `completed` or `closed` (any case) finish the task, any other value reopens it; finishing an Open task fires `task.completed` (once per transition). `due_date: null` clears the due date. A changed due date reschedules reminders; `send_reminder: false` stops them.",
  tag: "Tasks",
  scope: "task:write",
  params: TaskParamsSchema,
  body: UpdateTaskBodySchema,
  responses: { 200: TaskChangedSchema },
});

export const completeTaskOperation = defineOperation({
  method: "POST",
  path: "/api/v1/tasks/{taskId}/complete",
  operationId: "completeTask",
  summary: "Mark a task Done",
  description: "Fires `task.completed` when the task was Open; a task already Done stays Done: 200, nothing fired.",
  tag: "Tasks",
  scope: "task:write",
  params: TaskParamsSchema,
  responses: { 200: TaskChangedSchema },
});

export const taskOperations = [listTasksOperation, createTaskOperation, updateTaskOperation, completeTaskOperation] as const;
