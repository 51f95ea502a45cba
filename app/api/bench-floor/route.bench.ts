import * as jose from "jose";
import pg from "pg";

// The "framework floor" of `npm run bench` (scripts/bench/portals-list.ts): the bare baseline's
// work (scripts/bench/anchors/bare-portals.mjs) as a route handler of this same production build,
// so the benchmark measures what Next.js itself costs beside the product's GET /api/v1/portals.
// Only a benchmark build compiles it: `.bench.ts` is a page extension only when next.config.ts
// sees BENCH_BUILD=1 (`BENCH_BUILD=1 npm run build`); `npm run build` leaves it out, so a
// production server has no such route.

export const dynamic = "force-dynamic";

const GATE = `SELECT 1 FROM "OAuthGrant" g JOIN "Organization" o ON o.id = g."orgId" WHERE g.id = $1 AND g."revokedAt" IS NULL AND o.plan = 'enterprise' AND o."apiEnabled"`;
const PAGE = `SELECT p.id, p.name, p."orgId" AS org_id, p.tags, p."workflowStateId", w.name AS "workflowStateName",
  p.archived, p."isTemplate" AS is_template, p."createdAt" AS created_at, p."createdById" AS created_by, p."lastActivityAt" AS last_activity_at,
  COALESCE((SELECT json_object_agg(e.system, e.value) FROM "ExternalSystemId" e WHERE e."portalId" = p.id), '{}') AS "externalSystemIds",
  (SELECT count(*) FROM "Task" t WHERE t."portalId" = p.id AND t."deletedAt" IS NULL AND t.status = 'Open')::int AS open_task_count,
  (SELECT count(*) FROM "Task" t WHERE t."portalId" = p.id AND t."deletedAt" IS NULL AND t.status = 'Done')::int AS done_task_count
  FROM "Portal" p LEFT JOIN "WorkflowState" w ON w.id = p."workflowStateId"
  WHERE p."orgId" = $1 AND p."deletedAt" IS NULL AND p."isTemplate" = false ORDER BY p."createdAt", p.id LIMIT $2`;

let floor: { pool: pg.Pool; jwks: Promise<ReturnType<typeof jose.createLocalJWKSet>> } | undefined;

function start(url: URL) {
  // The product's own JWKS, fetched once from this server.
  const jwks = fetch(new URL("/.well-known/jwks.json", url)).then(async (r) => jose.createLocalJWKSet((await r.json()) as jose.JSONWebKeySet));
  return { pool: new pg.Pool({ connectionString: process.env["DATABASE_URL"], max: 10 }), jwks };
}

export async function GET(req: Request): Promise<Response> {
  const url = new URL(req.url);
  floor ??= start(url);
  try {
    const token = (req.headers.get("authorization") ?? "").replace(/^Bearer /, "");
    const { payload } = await jose.jwtVerify(token, await floor.jwks, { typ: "at+jwt" });
    const ok = await floor.pool.query(GATE, [payload["grant_id"]]);
    if (!ok.rowCount) return new Response(null, { status: 401 });
    const limit = Number(url.searchParams.get("limit") ?? 1000);
    const { rows } = await floor.pool.query(PAGE, [payload["org_id"], limit + 1]);
    return Response.json(rows.slice(0, limit));
  } catch (e) {
    return new Response(String(e), { status: 401 });
  }
}
