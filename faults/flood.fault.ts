import { readFileSync } from "node:fs";

import autocannon from "autocannon";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";

import { startWebhookReceiver, type WebhookReceiver } from "../lib/webhooks/test-support/webhook-receiver.ts";
import { percentile } from "../scripts/test/contention-load.ts";
import { attempt, sleep, startServices, until, type Outcome, type Services } from "./harness.ts";

// A flood of events for an organization with a webhook, against the production build and the job
// engine (docs/jobs.md, "Backpressure"): 16 API clients create portals as fast as they are answered
// for FLOOD_SECONDS (default 120), while one more client changes the webhook and reads the portal
// list once a second; then nothing. Background work must never starve requests: no answer is a
// 5xx, during the flood or after; the server's resident memory stays under 600 MB; and every event
// is delivered to the receiver exactly once within minutes of the flood's end.

const CLIENTS = 16;
const SECONDS = Number(process.env["FLOOD_SECONDS"] ?? 120);
const RSS_LIMIT_MB = 600;
const DRAIN_LIMIT_MS = 10 * 60_000;

let services: Services;
let receiver: WebhookReceiver;
let pool: pg.Pool;
const lines: string[] = [];

beforeAll(async () => {
  services = await startServices();
  Object.assign(process.env, services.env);
  receiver = await startWebhookReceiver();
  pool = new pg.Pool({ connectionString: services.env["DATABASE_URL"], max: 2 });
}, 600_000);

afterAll(async () => {
  process.stdout.write(`\n[faults] flood figures\n${lines.join("\n")}\n`);
  await pool?.end().catch(() => undefined);
  await receiver?.close();
  await services?.stop();
}, 60_000);

/** The server's resident memory now, in MB (from /proc). */
function serverRssMb(): number {
  const status = readFileSync(`/proc/${services.server.pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? Number.NaN);
  return Math.round(kb / 1024);
}

/** An organization whose API clients each have a token of their own (the daily quota is per client). */
async function floodOrg() {
  const { createApiContext, createTestClient } = await import("../lib/test-support/fixtures.ts");
  const { db } = await import("../lib/db.ts");
  const { issueAccessToken } = await import("../lib/oauth/access-token.ts");
  const { ALL_SCOPES } = await import("../lib/access/scopes.ts");
  const { org, user, token } = await createApiContext();
  const tokens = [token];
  for (let i = 1; i <= CLIENTS; i++) {
    const { client } = await createTestClient({ orgId: org.id, actorUserId: user.id, name: `Flood ${i}` });
    const grant = await db.oAuthGrant.create({ data: { orgId: org.id, clientId: client.id, userId: user.id, scopes: ALL_SCOPES } });
    tokens.push((await issueAccessToken({ grantId: grant.id, userId: user.id, orgId: org.id, clientId: client.clientId, scopes: ALL_SCOPES })).token);
  }
  return { orgId: org.id, tokens };
}

it(
  `${CLIENTS} clients create portals for ${SECONDS} s in an organization with a webhook: no 5xx, bounded memory, every event delivered once`,
  async () => {
    const { orgId, tokens } = await floodOrg();
    const auth = (i: number) => ({ authorization: `Bearer ${tokens[i]}`, "content-type": "application/json" });
    const created = await attempt(`${services.baseUrl}/api/v1/webhooks`, {
      method: "POST",
      headers: auth(0),
      body: JSON.stringify({ url: `${receiver.url}/flood`, events: ["portal.created"] }),
    });
    expect(created.status, JSON.stringify(created)).toBe(201);
    const webhookId = (JSON.parse((created as { body: string }).body) as { webhook_id: string }).webhook_id;
    const idleRss = serverRssMb();

    // Memory every 500 ms, and the interactive client once a second, from now until every event is in.
    let peakRss = idleRss;
    let watching = true;
    const sampler = (async () => {
      while (watching) {
        peakRss = Math.max(peakRss, serverRssMb());
        await sleep(500);
      }
    })();
    const interactive: Outcome[] = [];
    const interactiveLoop = (async () => {
      while (watching) {
        interactive.push(
          await attempt(`${services.baseUrl}/api/v1/webhooks/${webhookId}`, {
            method: "PATCH",
            headers: auth(0),
            body: JSON.stringify({ events: ["portal.created"] }),
          }),
          await attempt(`${services.baseUrl}/api/v1/portals?limit=10`, { headers: auth(0) }),
        );
        await sleep(1000);
      }
    })();

    const floodStarted = Date.now();
    const results = await Promise.all(
      Array.from({ length: CLIENTS }, (_, i) =>
        autocannon({
          url: `${services.baseUrl}/api/v1/portals`,
          method: "POST",
          headers: auth(i + 1),
          body: JSON.stringify({ name: `Flood portal ${i}` }),
          connections: 1,
          duration: SECONDS,
          timeout: 30,
        }),
      ),
    );
    const floodEnded = Date.now();
    const answered = results.reduce((n, r) => n + r["2xx"], 0);
    const statuses: Record<string, number> = {};
    for (const r of results) for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = (statuses[code] ?? 0) + stat.count;
    const errors = results.reduce((n, r) => n + r.errors + r.timeouts, 0);
    const floodP99 = Math.max(...results.map((r) => r.latency.p99));
    const peakDuringFlood = peakRss;

    // The events, as the database has them (a create still in flight when the load stopped commits
    // a moment later), then each one's delivery.
    await sleep(2000);
    const events = (await pool.query<{ id: string }>(`SELECT id FROM "Event" WHERE "orgId" = $1::uuid AND type = 'portal.created'`, [orgId])).rows.map(
      (r) => r.id,
    );
    const delivered = () => receiver.requests.filter((r) => r.path.endsWith("/flood"));
    await until(
      `${events.length} deliveries`,
      () => (new Set(delivered().map((r) => (JSON.parse(r.body.toString("utf8")) as { event_id: string }).event_id)).size >= events.length ? true : undefined),
      DRAIN_LIMIT_MS,
    );
    const drainedSeconds = (Date.now() - floodEnded) / 1000;
    await sleep(3000); // a late duplicate, if any, lands before counting
    watching = false;
    await Promise.all([sampler, interactiveLoop]);

    const eventIds = delivered().map((r) => (JSON.parse(r.body.toString("utf8")) as { event_id: string }).event_id);
    const failedInteractive = interactive.filter((o) => typeof o.status !== "number" || o.status >= 500);
    lines.push(
      `  flood: ${answered} portals created in ${((floodEnded - floodStarted) / 1000).toFixed(0)} s (${(answered / SECONDS).toFixed(0)}/s), statuses ${JSON.stringify(statuses)}, ${errors} errors, p99 ${floodP99} ms`,
      `  interactive: ${interactive.length} requests, p99 ${percentile(
        interactive.map((o) => o.ms),
        99,
      )} ms, ${failedInteractive.length} failed`,
      `  deliveries: ${eventIds.length} for ${events.length} events, drained ${drainedSeconds.toFixed(0)} s after the flood`,
      `  server RSS: idle ${idleRss} MB, peak during the flood ${peakDuringFlood} MB, peak overall ${peakRss} MB`,
    );

    expect(Object.keys(statuses).filter((code) => Number(code) >= 500)).toEqual([]);
    expect(errors).toBe(0);
    // Every answered create made its event; a request in flight when the load stopped may have too.
    expect(events.length).toBeGreaterThanOrEqual(answered);
    expect(events.length).toBeLessThanOrEqual(answered + CLIENTS);
    expect(failedInteractive.map((o) => ("body" in o ? `${o.status} ${o.body.slice(0, 200)}` : `${o.status} ${o.error}`))).toEqual([]);
    expect(peakRss).toBeLessThan(RSS_LIMIT_MB);
    // Exactly once: one request per event, none twice.
    expect(eventIds.length).toBe(events.length);
    expect(new Set(eventIds).size).toBe(events.length);
  },
  30 * 60_000,
);
