import { registerApiDispatcher } from "@/lib/api/dispatch";
import { unknownApiPath } from "@/lib/api/unknown-path";
import { API_ROUTE_TABLE } from "../route-table";

// Loading this module hands the route table to the application server (server/app-server.ts
// requests this path once at start). It is loaded in Next.js's own module graph for route
// handlers, so the dispatcher calls the very modules Next.js would: in development, an edited
// route module is replaced there and this module runs again with the new table.
registerApiDispatcher(API_ROUTE_TABLE);

// The path itself is no endpoint.
export const GET = unknownApiPath;
