// What a route file and an operation definition need. The OpenAPI builder is imported from
// lib/api/openapi directly, so route modules do not load every operation.
export { apiRoute, publicApiRoute } from "./route";
export { defineOperation } from "./operation";
export { exactJson, json } from "./response";
export { linkHeader } from "./pagination";
