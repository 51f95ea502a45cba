// What a route file and an operation definition need. The OpenAPI builder is imported from
// lib/api/openapi directly, so route modules do not load every operation.
export { apiRoute, publicApiRoute, type HandlerArgs, type RouteHandler } from "./route";
export { defineOperation, type Operation } from "./operation";
export { exactJson, json, type ApiResult, type ExactResult } from "./response";
export { ErrorSchema } from "./schemas";
export { linkHeader } from "./pagination";
export type { ApiAuth } from "./auth";
