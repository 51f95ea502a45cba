// GET/POST/PUT /api/inngest - the Inngest serve() endpoint: sync (PUT), run functions (POST), introspection (GET)
import type { NextRequest } from "next/server";
import { serve } from "inngest/next";
import pLimit from "p-limit";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { runInBackground } from "@/lib/db";

// serve() reads the client's configuration when it is built (the API base URL); building it on the
// first request keeps `next build`, which imports this module without a runtime environment, from
// needing one.
let handler: ReturnType<typeof serve> | undefined;
const getHandler = () => (handler ??= serve({ client: inngest, functions }));

/**
 * Function calls run at most this many at a time per process; the engine's further calls wait
 * their turn (their connections held, not their work started). With the background lane's pool
 * (lib/db.ts) this bounds what background work takes from the process: requests keep the CPU
 * share and the connections of their own lane however large the engine's backlog.
 */
const SERVE_CONCURRENCY = 4;
const calls = pLimit(SERVE_CONCURRENCY);

export const GET = (req: NextRequest, ctx: unknown) => getHandler().GET(req, ctx);
export const POST = (req: NextRequest, ctx: unknown) => calls(() => runInBackground(() => getHandler().POST(req, ctx)));
export const PUT = (req: NextRequest, ctx: unknown) => getHandler().PUT(req, ctx);
