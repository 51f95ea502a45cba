import { fileOperations } from "@/lib/files/operations";
import { inviteGuestsOperation } from "@/lib/guests/operations";
import { getMeOperation } from "@/lib/me/operations";
import {
  createPortalOperation,
  getPortalOperation,
  listPortalsOperation,
  setPortalWorkflowOperation,
  updatePortalOperation,
} from "@/lib/portals/operations";
import { taskOperations } from "@/lib/tasks/operations";
import { listWorkflowStatesOperation } from "@/lib/workflow/operations";
import { webhookOperations } from "@/lib/webhooks/operations";
import type { Operation } from "../operation";
import { getOpenApiOperation } from "./definition";

// Every /api/v1 operation, for the OpenAPI document. Next.js loads route modules lazily, so the
// document cannot rely on routes registering themselves; it imports their definitions from lib.
//
// Adding an endpoint: define it once with defineOperation() in lib/<domain>/operations.ts, add it
// here, and serve it from the matching route file with apiRoute(definition, handler).
// operations.int.test.ts fails when a route's handler is missing here or its path does not
// match its file.
export const API_OPERATIONS: readonly Operation[] = [
  getMeOperation,
  listWorkflowStatesOperation,
  listPortalsOperation,
  createPortalOperation,
  getPortalOperation,
  updatePortalOperation,
  setPortalWorkflowOperation,
  ...fileOperations,
  inviteGuestsOperation,
  ...taskOperations,
  ...webhookOperations,
  getOpenApiOperation,
];
