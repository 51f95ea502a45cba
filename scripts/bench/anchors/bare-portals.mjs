// The bare baseline for GET /api/v1/portals?limit=N: node:http + pg doing what a minimal correct
// implementation must: verify the ES256 access token against the product's JWKS, check the grant
// is not revoked and the org has API access (one query), select the page of portals with their
// workflow state, external ids and open/done task counts, answer JSON.
// Usage: DATABASE_URL=... JWKS_URL=http://host/.well-known/jwks.json PORT=4500 node bare-portals.mjs
import http from "node:http";
import pg from "pg";
import * as jose from "jose";
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const jwks = jose.createLocalJWKSet(await (await fetch(process.env.JWKS_URL)).json());
const GATE = `SELECT 1 FROM "OAuthGrant" g JOIN "Organization" o ON o.id = g."orgId"
  WHERE g.id = $1 AND g."revokedAt" IS NULL AND o.plan = 'enterprise' AND o."apiEnabled"`;
const PAGE = `SELECT p.id, p.name, p."orgId" AS org_id, p.tags, p."workflowStateId", w.name AS "workflowStateName",
  p.archived, p."isTemplate" AS is_template, p."createdAt" AS created_at, p."createdById" AS created_by, p."lastActivityAt" AS last_activity_at,
  COALESCE((SELECT json_object_agg(e.system, e.value) FROM "ExternalSystemId" e WHERE e."portalId" = p.id), '{}') AS "externalSystemIds",
  (SELECT count(*) FROM "Task" t WHERE t."portalId" = p.id AND t."deletedAt" IS NULL AND t.status = 'Open')::int AS open_task_count,
  (SELECT count(*) FROM "Task" t WHERE t."portalId" = p.id AND t."deletedAt" IS NULL AND t.status = 'Done')::int AS done_task_count
  FROM "Portal" p LEFT JOIN "WorkflowState" w ON w.id = p."workflowStateId"
  WHERE p."orgId" = $1 AND p."deletedAt" IS NULL AND p."isTemplate" = false
  ORDER BY p."createdAt", p.id LIMIT $2`;
http
  .createServer(async (req, res) => {
    try {
      const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      const { payload } = await jose.jwtVerify(token, jwks, { typ: "at+jwt" });
      const ok = await pool.query(GATE, [payload.grant_id]);
      if (!ok.rowCount) {
        res.writeHead(401);
        return res.end();
      }
      const limit = Number(new URL(req.url, "http://x").searchParams.get("limit") ?? 1000);
      const { rows } = await pool.query(PAGE, [payload.org_id, limit + 1]);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(rows.slice(0, limit)));
    } catch (e) {
      res.writeHead(401);
      res.end(String(e.message));
    }
  })
  .listen(Number(process.env.PORT ?? 4500), "127.0.0.1", () => console.log("ready"));
