import * as catchAll from "./v1/[[...path]]/route";
import * as me from "./v1/me/route";
import * as openApi from "./v1/openapi.json/route";
import * as portal from "./v1/portals/[portalId]/route";
import * as portalFiles from "./v1/portals/[portalId]/files/route";
import * as portalFilesComplete from "./v1/portals/[portalId]/files/complete/route";
import * as portalGuests from "./v1/portals/[portalId]/guests/route";
import * as portalTasks from "./v1/portals/[portalId]/tasks/route";
import * as portalWorkflow from "./v1/portals/[portalId]/workflow/route";
import * as portals from "./v1/portals/route";
import * as task from "./v1/tasks/[taskId]/route";
import * as taskComplete from "./v1/tasks/[taskId]/complete/route";
import * as webhook from "./v1/webhooks/[webhookId]/route";
import * as webhookDeliveries from "./v1/webhooks/[webhookId]/deliveries/route";
import * as webhookRedeliver from "./v1/webhooks/[webhookId]/deliveries/[deliveryId]/redeliver/route";
import * as webhookRotateSecret from "./v1/webhooks/[webhookId]/rotate-secret/route";
import * as webhookTest from "./v1/webhooks/[webhookId]/test/route";
import * as webhooks from "./v1/webhooks/route";
import * as workflowStates from "./v1/workflow-states/route";
import * as inngest from "./inngest/route";
import * as oauthRevoke from "../oauth/revoke/route";
import * as oauthToken from "../oauth/token/route";
import type { RouteTable } from "@/lib/api/dispatch";

// The route handlers the application server (server/index.ts, production and `npm run dev`) calls
// itself, without Next.js's router (the router and proxy cost more per request than the whole of a
// refresh grant). The same modules Next.js serves behind `next start`: one handler per operation,
// whichever way a request arrives (app/api/dispatcher/route.ts registers this table from Next.js's
// own module graph). Paths are the folders' own; route-table.test.ts checks that every route file
// under app/api/v1, the two OAuth endpoints and the job engine's endpoint are listed, and nothing else.

export const API_ROUTE_TABLE: RouteTable = {
  routes: [
    { path: "/api/v1/me", module: me },
    { path: "/api/v1/openapi.json", module: openApi },
    { path: "/api/v1/portals", module: portals },
    { path: "/api/v1/portals/[portalId]", module: portal },
    { path: "/api/v1/portals/[portalId]/files", module: portalFiles },
    { path: "/api/v1/portals/[portalId]/files/complete", module: portalFilesComplete },
    { path: "/api/v1/portals/[portalId]/guests", module: portalGuests },
    { path: "/api/v1/portals/[portalId]/tasks", module: portalTasks },
    { path: "/api/v1/portals/[portalId]/workflow", module: portalWorkflow },
    { path: "/api/v1/tasks/[taskId]", module: task },
    { path: "/api/v1/tasks/[taskId]/complete", module: taskComplete },
    { path: "/api/v1/webhooks", module: webhooks },
    { path: "/api/v1/webhooks/[webhookId]", module: webhook },
    { path: "/api/v1/webhooks/[webhookId]/deliveries", module: webhookDeliveries },
    { path: "/api/v1/webhooks/[webhookId]/deliveries/[deliveryId]/redeliver", module: webhookRedeliver },
    { path: "/api/v1/webhooks/[webhookId]/rotate-secret", module: webhookRotateSecret },
    { path: "/api/v1/webhooks/[webhookId]/test", module: webhookTest },
    { path: "/api/v1/workflow-states", module: workflowStates },
    { path: "/oauth/token", module: oauthToken },
    { path: "/oauth/revoke", module: oauthRevoke },
    // The job engine's calls: every event's function runs come through here (a write's background
    // work costs more in Next.js's router than in the functions themselves).
    { path: "/api/inngest", module: inngest },
  ],
  fallback: catchAll,
};
