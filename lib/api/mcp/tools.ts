import { z } from "zod";
import type { UserViewer } from "@/lib/access/viewer";
import { formatZodError } from "@/lib/api/error-response";
import type { Operation } from "@/lib/api/operation";
import { listFilesOperation } from "@/lib/api/operations/files";
import { inviteGuestsOperation } from "@/lib/api/operations/guests";
import { getPortalOperation, listPortalsOperation } from "@/lib/api/operations/portals";
import { completeTaskOperation, createTaskOperation, listTasksOperation } from "@/lib/api/operations/tasks";
import { AppError, invalidRequest } from "@/lib/errors";
import { listPortalFiles } from "@/lib/files/list-files";
import { toFileResponse } from "@/lib/files/to-response";
import { inviteGuests } from "@/lib/guests/invite-guests";
import { guestsOfRequest } from "@/lib/guests/schemas";
import { encodeCursor, type Cursor } from "@/lib/pagination";
import { getPortal } from "@/lib/portals/get-portal";
import { listPortals } from "@/lib/portals/list-portals";
import { toPortalBody, toPortalResponse } from "@/lib/portals/to-response";
import { completeTask } from "@/lib/tasks/complete-task";
import { createTask } from "@/lib/tasks/create-task";
import { listPortalTasks } from "@/lib/tasks/list-portal-tasks";
import { toTaskResponse } from "@/lib/tasks/to-response";
import type { Scope } from "@/lib/access/scopes";

// The MCP server's tools: each is one REST operation (lib/api/operations), with its scope, its
// input schemas (path, query and body fields side by side) and the same domain function its
// route handler calls. Results are the operation's response, parsed by its response schema as the
// API serializes it; lists come wrapped in an object (MCP structured content is an object) with
// the next page's cursor. No tool returns file contents (the contract's rule).

/** What a tool's run gets: the viewer (as the API builds it) and the operation's parsed input. */
interface RunArgs {
  viewer: UserViewer;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  operation: Operation;
  scope: Scope;
  /** Key of the list in the structured result, for list operations. */
  listKey?: string;
  /** `exact`: the body is already the response schema's output (lib/api/response.ts exactJson). */
  run(args: RunArgs): Promise<{ status: number; body: unknown; next?: Cursor | null; exact?: true }>;
}

// The domain calls, typed by the operation's parsed input (the API's parse is what reaches them).
/* eslint-disable @typescript-eslint/no-explicit-any */
type Any = any;

const listOf = (items: unknown[], next: Cursor | null | undefined) => ({ status: 200, body: items, next: next ?? null });

export const MCP_TOOLS: McpTool[] = [
  {
    name: "find_portals",
    title: "Find portals",
    description:
      "List the organization's portals (archived included), or look one up by an external system id (externalSystem + externalId). Paged: pass next_cursor back as cursor.",
    operation: listPortalsOperation as Operation,
    scope: "portal:read",
    listKey: "portals",
    async run({ viewer, query }) {
      const q = query as Any;
      const externalId = q.externalSystem !== undefined && q.externalId !== undefined ? { system: q.externalSystem, value: q.externalId } : undefined;
      const { items, next } = await listPortals({ viewer, templatesOnly: q.templatesOnly, externalId, limit: q.limit, cursor: q.cursor });
      // toPortalBody writes the response as sent (the list handler's exactJson).
      return { ...listOf(items.map(toPortalBody), next), exact: true as const };
    },
  },
  {
    name: "get_portal",
    title: "Read a portal",
    description: "One portal with its task counters, last activity, web link and partner link.",
    operation: getPortalOperation as Operation,
    scope: "portal:read",
    async run({ viewer, params }) {
      return { status: 200, body: toPortalResponse(await getPortal({ viewer, portalId: params["portalId"] as string })) };
    },
  },
  {
    name: "list_files",
    title: "List a portal's files",
    description: "A portal's files and folders, flat, metadata only (names, sizes, dates, folders): file contents are never returned.",
    operation: listFilesOperation as Operation,
    scope: "file:list",
    listKey: "files",
    async run({ viewer, params, query }) {
      const q = query as Any;
      const { items, next } = await listPortalFiles({ viewer, portalId: params["portalId"] as string, limit: q.limit, cursor: q.cursor });
      return listOf(items.map(toFileResponse), next);
    },
  },
  {
    name: "list_tasks",
    title: "List a portal's tasks",
    description: "A portal's active tasks (Open and Done) with assignees, due dates and attached file ids.",
    operation: listTasksOperation as Operation,
    scope: "task:read",
    listKey: "tasks",
    async run({ viewer, params, query }) {
      const q = query as Any;
      const { items, next } = await listPortalTasks({ viewer, portalId: params["portalId"] as string, limit: q.limit, cursor: q.cursor });
      return listOf(items.map(toTaskResponse), next);
    },
  },
  {
    name: "create_task",
    title: "Create a task",
    description: createTaskOperation.description ?? createTaskOperation.summary,
    operation: createTaskOperation as Operation,
    scope: "task:write",
    async run({ viewer, params, body }) {
      const { taskId } = await createTask({ viewer, portalId: params["portalId"] as string, ...(body as Any) });
      return { status: 201, body: { task_id: taskId } };
    },
  },
  {
    name: "complete_task",
    title: "Complete a task",
    description: "Mark a task Done (a Done task stays Done).",
    operation: completeTaskOperation as Operation,
    scope: "task:write",
    async run({ viewer, params }) {
      await completeTask({ viewer, taskId: params["taskId"] as string });
      return { status: 200, body: { success: true, task_id: params["taskId"] } };
    },
  },
  {
    name: "invite_guests",
    title: "Invite guests",
    description: "Invite one or several guests to a portal (all or nothing); each gets an invitation email.",
    operation: inviteGuestsOperation as Operation,
    scope: "guest:invite",
    async run({ viewer, params, body }) {
      const { invitedCount } = await inviteGuests({ viewer, portalId: params["portalId"] as string, guests: guestsOfRequest(body as Any) });
      const message = `Invited ${invitedCount} guest${invitedCount === 1 ? "" : "s"}`;
      return { status: 201, body: { success: true, invited_count: invitedCount, message } };
    },
  },
];
/* eslint-enable @typescript-eslint/no-explicit-any */

type Shape = Record<string, z.ZodType>;
const shapeOf = (schema: z.ZodType | undefined): Shape => (schema instanceof z.ZodObject ? (schema.shape as Shape) : {});

/** The tool's input: the operation's path parameters, query and body fields as one object. */
export function inputSchemaOf(tool: McpTool): z.ZodObject {
  const { params, query, body } = tool.operation;
  return z.object({ ...shapeOf(params), ...shapeOf(query), ...shapeOf(body) });
}

/** The tool's structured result: the operation's response, a list wrapped with its cursor. */
export function outputSchemaOf(tool: McpTool): z.ZodObject {
  const [status] = Object.keys(tool.operation.responses).map(Number);
  const response = tool.operation.responses[status ?? 200];
  if (tool.listKey) return z.object({ [tool.listKey]: z.array(z.record(z.string(), z.unknown())), next_cursor: z.string().nullable() });
  return response instanceof z.ZodObject ? z.object(Object.fromEntries(Object.keys(response.shape).map((k) => [k, z.unknown()]))) : z.object({});
}

function parsePart(schema: z.ZodType | undefined, args: Record<string, unknown>, root: string): Record<string, unknown> {
  if (!schema) return {};
  const keys = Object.keys(shapeOf(schema));
  const input = Object.fromEntries(keys.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));
  const result = schema.safeParse(input);
  if (result.success) return result.data as Record<string, unknown>;
  // As the API: a malformed id names nothing that exists (D4), a missing one is bad input.
  const malformedId = root === "Path" ? result.error.issues.find((i) => i.code === "custom") : undefined;
  if (malformedId) throw new AppError("not_found", malformedId.message);
  throw invalidRequest(formatZodError(result.error, root));
}

/** Runs a tool: the operation's parse of each part (as the API parses it), then the domain call. */
export async function runTool(tool: McpTool, viewer: UserViewer, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { params, query, body } = tool.operation;
  const parsed = {
    params: parsePart(params, args, "Path"),
    query: parsePart(query, args, "Query"),
    body: body ? parsePart(body, args, "Request body") : undefined,
  };
  const result = await tool.run({ viewer, ...parsed });
  const schema = tool.operation.responses[result.status];
  if (!schema) throw new Error(`Tool ${tool.name} returned status ${result.status}, which its operation does not declare`);
  // The API's serialization: the response schema's parse (dates as ISO text), then JSON.
  const value: unknown = JSON.parse(JSON.stringify(result.exact ? result.body : schema.parse(result.body)));
  if (tool.listKey) return { [tool.listKey]: value, next_cursor: result.next ? encodeCursor(result.next) : null };
  return value as Record<string, unknown>;
}
