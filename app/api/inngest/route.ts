// GET/POST/PUT /api/inngest - the Inngest serve() endpoint: sync (PUT), run functions (POST), introspection (GET)
import type { NextRequest } from "next/server";
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { functions } from "@/inngest/functions";
import { runJobCall } from "@/lib/background-work";

// serve() reads the client's configuration when it is built (the API base URL); building it on the
// first request keeps `next build`, which imports this module without a runtime environment, from
// needing one.
let handler: ReturnType<typeof serve> | undefined;
const getHandler = () => (handler ??= serve({ client: inngest, functions }));

export const GET = (req: NextRequest, ctx: unknown) => getHandler().GET(req, ctx);
// Each call of a function in the background lane, a few at a time (lib/background-work.ts).
export const POST = (req: NextRequest, ctx: unknown) => runJobCall(() => getHandler().POST(req, ctx));
export const PUT = (req: NextRequest, ctx: unknown) => getHandler().PUT(req, ctx);
