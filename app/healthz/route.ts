// GET /healthz - liveness: the process is up and serving. Checks nothing else, so that an outage
// of a dependency never makes an orchestrator restart healthy processes (that is /readyz).
export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
