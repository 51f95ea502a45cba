import { inngestSettings } from "@/inngest/config";
import { checkReadiness } from "@/lib/health/readiness";
import { env } from "@/lib/env";

/** Where the job engine takes events: the Dev Server or Inngest Cloud's event API. */
const INNGEST_CLOUD_EVENT_API = "https://inn.gs/";

// GET /readyz - readiness: the database, the object store and the job engine answer, each within
// READINESS_TIMEOUT_MS. 503 names what failed. No token, no rate limit (it is not under /api/v1).
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { ready, checks } = await checkReadiness({ jobsUrl: inngestSettings(env()).baseUrl ?? INNGEST_CLOUD_EVENT_API });
  const failed = Object.entries(checks)
    .filter(([, r]) => !r.ok)
    .map(([name]) => name);
  const body = ready ? { status: "ready", checks } : { status: "unavailable", failed, checks };
  return Response.json(body, { status: ready ? 200 : 503, headers: { "Cache-Control": "no-store", ...(ready ? {} : { "Retry-After": "5" }) } });
}
