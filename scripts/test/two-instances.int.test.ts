import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { issueAccessToken } from "@/lib/oauth/access-token";
import { ALL_SCOPES } from "@/lib/access/scopes";
import { createApiContext, createTestClient } from "@/lib/test-support/fixtures";
import { startWebhookReceiver, type WebhookReceiver } from "@/lib/webhooks/test-support/webhook-receiver";
import { InngestExecutor } from "./inngest-executor.ts";

// Past one machine: two app instances, each its own process with
// the production route handlers, its own event relay and its own in-memory caches, against one
// database, behind a round-robin balancer, with one Inngest (the local executor) calling back
// through the balancer. The daily rate limit stays exact, an Idempotency-Key does its work once,
// and every event reaches Inngest once and every webhook delivery is sent once.
//
// Why two processes of the route handlers and not two `next start`: the integration tier runs
// without a build, and two Next.js servers cost ~600 MB and tens of seconds to start on a 2-core
// machine. What they would add (Next.js's router and proxy.ts) holds no state an instance could
// disagree on; everything that does (the relay, the caches, the counters) is the code that runs.

const root = fileURLToPath(new URL("../..", import.meta.url));
// Ports of this test (the perf helper's block): balancer, instance A, instance B.
const BALANCER_PORT = 3730;
const INSTANCE_PORTS = [3731, 3732];
const LIMIT = 60;

const children: ChildProcess[] = [];
let balancer: Server;
let executor: InngestExecutor;
let receiver: WebhookReceiver;
const instanceUrls = INSTANCE_PORTS.map((p) => `http://127.0.0.1:${p}`);
const balancerUrl = `http://127.0.0.1:${BALANCER_PORT}`;

function startInstance(port: number, extraEnv: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", path.join(root, "scripts/test/app-instance.ts")], {
    cwd: root,
    env: { ...process.env, ...extraEnv, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  child.stderr.on("data", (c: Buffer) => process.stderr.write(`[instance ${port}] ${c.toString()}`));
  child.stdout.on("data", (c: Buffer) => process.stderr.write(`[instance ${port}] ${c.toString()}`));
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (c: Buffer) => {
      if (c.toString().includes("listening")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`instance on ${port} exited (${code})`)));
  });
}

/** Round robin over the instances, as a load balancer in front of them. */
function startBalancer(): Promise<Server> {
  let next = 0;
  const server = createServer((req, res) => {
    const port = INSTANCE_PORTS[next++ % INSTANCE_PORTS.length]!;
    const upstream = httpRequest({ host: "127.0.0.1", port, method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(BALANCER_PORT, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  executor = new InngestExecutor({ timeScale: 0.001 });
  await executor.listen();
  const shared = {
    // The tokens this test issues name this process's API URL as issuer and audience.
    APP_URL: env().APP_URL,
    API_URL: env().API_URL,
    API_RATE_LIMIT_PER_DAY: String(LIMIT),
    INNGEST_DEV: "1",
    INNGEST_BASE_URL: executor.url,
    OUTBOUND_ALLOW_PRIVATE: "true",
    LOG_LEVEL: "warn",
  };
  await Promise.all(INSTANCE_PORTS.map((port) => startInstance(port, shared)));
  balancer = await startBalancer();
  await executor.syncWhenUp(`${balancerUrl}/api/inngest`, 60_000);
  receiver = await startWebhookReceiver();
}, 120_000);

afterAll(async () => {
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      return exited;
    }),
  );
  await new Promise<void>((resolve) => (balancer ? balancer.close(() => resolve()) : resolve()));
  await executor?.close();
  await receiver?.close();
});

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not reached within ${timeoutMs} ms (${receiver.requests.length} webhook requests received)`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const call = (base: string, token: string, pathname: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  fetch(`${base}${pathname}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

describe("two app instances, one database", () => {
  it("count the daily rate limit exactly: every request once, the first LIMIT allowed, each with its own remaining count", async () => {
    const { org, user } = await createApiContext();
    // A client of its own: the limit is per client.
    const { client } = await createTestClient({ orgId: org.id, actorUserId: user.id, name: "Rate limited" });
    const grant = await db.oAuthGrant.create({ data: { orgId: org.id, clientId: client.id, userId: user.id, scopes: ALL_SCOPES } });
    const { token } = await issueAccessToken({ grantId: grant.id, userId: user.id, orgId: org.id, clientId: client.clientId, scopes: ALL_SCOPES });

    const total = 100;
    const responses = await Promise.all(Array.from({ length: total }, (_, i) => call(instanceUrls[i % 2]!, token, "/api/v1/me")));
    const ok = responses.filter((r) => r.status === 200);
    const limited = responses.filter((r) => r.status === 429);
    expect([ok.length, limited.length]).toEqual([LIMIT, total - LIMIT]);
    // Each allowed request had its own place in the day's count: remaining LIMIT-1 down to 0, once each.
    const remaining = ok.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: LIMIT }, (_, i) => i));
    for (const r of limited) expect(r.headers.get("x-ratelimit-remaining")).toBe("0");
    const [counter] = await db.rateLimitCounter.findMany({ where: { clientId: client.id } });
    expect(counter?.count).toBe(total);
  });

  it("do the work of an Idempotency-Key once, whichever instance each retry reaches", async () => {
    const { token } = await createApiContext();
    const key = randomUUID();
    const name = `Idempotent ${key}`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(instanceUrls[i % 2]!, token, "/api/v1/portals", { method: "POST", body: { name }, headers: { "idempotency-key": key } }),
      ),
    );
    const bodies = await Promise.all(responses.map(async (r) => ({ status: r.status, json: (await r.json()) as { id?: string; error?: string } })));
    const created = bodies.filter((b) => b.status === 201);
    expect(created.length).toBeGreaterThan(0);
    // A retry that arrives while the first is still running is told so (409), never given a second portal.
    for (const b of bodies) expect(b.status === 201 || (b.status === 409 && typeof b.json.error === "string")).toBe(true);
    expect(new Set(created.map((b) => b.json.id)).size).toBe(1);
    expect(await db.portal.count({ where: { name } })).toBe(1);
    // Once settled, a retry on either instance replays the stored response.
    for (const base of instanceUrls) {
      const again = await call(base, token, "/api/v1/portals", { method: "POST", body: { name }, headers: { "idempotency-key": key } });
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(((await again.json()) as { id: string }).id).toBe(created[0]!.json.id);
    }
    expect(await db.portal.count({ where: { name } })).toBe(1);
  });

  it("hand every event to Inngest once and send every webhook delivery once, both relays running", async () => {
    const { org, token } = await createApiContext();
    const hook = await call(instanceUrls[0]!, token, "/api/v1/webhooks", { method: "POST", body: { url: receiver.url, events: ["portal.created"] } });
    expect(hook.status).toBe(201);
    const webhookId = ((await hook.json()) as { webhook_id: string }).webhook_id;

    const portals = 20;
    const created = await Promise.all(
      Array.from({ length: portals }, (_, i) => call(instanceUrls[i % 2]!, token, "/api/v1/portals", { method: "POST", body: { name: `Scale-out ${i}` } })),
    );
    expect(created.map((r) => r.status)).toEqual(Array(portals).fill(201));
    const portalIds = new Set(await Promise.all(created.map(async (r) => ((await r.json()) as { id: string }).id)));

    const delivered = () => receiver.requests.filter((r) => portalIds.has((JSON.parse(r.body.toString()) as { portal_id: string }).portal_id));
    await until(() => delivered().length >= portals, 90_000);
    // Settled: nothing more arrives after a quiet moment (a duplicate would come now).
    await new Promise((resolve) => setTimeout(resolve, 2000));

    const events = await db.event.findMany({ where: { orgId: org.id, type: "portal.created" }, select: { id: true, dispatchedAt: true } });
    expect(events).toHaveLength(portals);
    expect(events.every((e) => e.dispatchedAt !== null)).toBe(true);
    // Inngest received each event once: no event was handed over by both relays.
    const received = executor.events.filter((e) => events.some((row) => row.id === e.id));
    expect(received.filter((e) => e.duplicate)).toEqual([]);
    expect(new Set(received.map((e) => e.id)).size).toBe(portals);
    expect(received).toHaveLength(portals);

    // Each delivery sent once, one per portal, all counted once.
    const requests = delivered();
    expect(requests).toHaveLength(portals);
    expect(new Set(requests.map((r) => r.headers["x-webhook-delivery-id"])).size).toBe(portals);
    expect(new Set(requests.map((r) => (JSON.parse(r.body.toString()) as { portal_id: string }).portal_id))).toEqual(portalIds);
    const deliveries = await db.webhookDelivery.findMany({ where: { webhookId }, select: { status: true, attemptCount: true } });
    expect(deliveries).toHaveLength(portals);
    expect(deliveries.every((d) => d.status === "succeeded" && d.attemptCount === 1)).toBe(true);
    expect((await db.webhook.findUniqueOrThrow({ where: { id: webhookId } })).successCount).toBe(portals);
  }, 150_000);
});
