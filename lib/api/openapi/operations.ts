import { fileOperations } from "@/lib/api/operations/files";
import { guestOperations } from "@/lib/api/operations/guests";
import { getMeOperation } from "@/lib/api/operations/me";
import {
  createPortalOperation,
  getPortalOperation,
  listPortalsOperation,
  setPortalWorkflowOperation,
  updatePortalOperation,
} from "@/lib/api/operations/portals";
import { taskOperations } from "@/lib/api/operations/tasks";
import { listWorkflowStatesOperation } from "@/lib/api/operations/workflow";
import { webhookOperations } from "@/lib/api/operations/webhooks";
import type { Operation } from "../operation";
import { getOpenApiOperation } from "./definition";

// Every /api/v1 operation, for the OpenAPI document. Next.js loads route modules lazily, so the
// document cannot rely on routes registering themselves; it imports their definitions from lib.
//
// Adding an endpoint: define it once with defineOperation() in lib/api/operations/<domain>.ts, add it
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
  ...guestOperations,
  ...taskOperations,
  ...webhookOperations,
  getOpenApiOperation,
];
