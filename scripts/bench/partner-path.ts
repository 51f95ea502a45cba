/**
 * Benchmark: the path an uploaded file takes to the practice-software partner, as deployed: the
 * upload through the API (start, PUT to the bucket, complete), the outbox, the event relay, the
 * job engine (the local executor in a process of its own, its CPU reported apart), the push plan
 * and push runs, and the partner sandbox on loopback receiving the file. Two organizations of one
 * server, one connected to the partner (its portal linked to a sandbox customer) and one not:
 *
 *   burst   200 uploads at 8 concurrent, then until every file has arrived at the partner:
 *           server and executor CPU per upload (its requests and all their background work), and
 *           the push latency p50/p99 (arrival at the partner - the completing request's answer)
 *
 * A measurement beside the webhook path's (event-path.ts); no target of its own.
 *
 *   BENCH_BUILD=1 npm run build && BENCH_ONLY=partner npm run bench
 */
import { pathToFileURL } from "node:url";

import { SANDBOX_API_KEY, startPartnerSandbox, type PartnerSandbox } from "../partner-sandbox.ts";
import { startBenchApp, type BenchApp } from "./app-server.ts";
import { pendingEvents, settled } from "./event-path.ts";
import { quantile } from "./load.ts";
import type { Bench, BenchRow } from "./report.ts";

const UPLOADS = Number(process.env["BENCH_PARTNER_UPLOADS"] ?? 200);
const WARM_UP = 50;
const CONCURRENT = 8;
const CUSTOMER = "123456";
const DRAIN_TIMEOUT_MS = 180_000;

type Org = { partner: boolean; orgId: string; portalId: string; token: string };

async function seed(sandbox: PartnerSandbox): Promise<Org[]> {
  // The connection is checked against the sandbox on loopback from this process, as the server's
  // own policy allows (startBenchApp).
  process.env["OUTBOUND_ALLOW_PRIVATE"] = "true";
  (await import("@/lib/env")).resetEnvForTests();
  const { createApiContext, createTestPortal } = await import("@/lib/test-support/fixtures");
  const { getUserViewer } = await import("@/lib/access/viewer");
  const { connectPartner } = await import("@/lib/partner/connection");
  const orgs: Org[] = [];
  for (const partner of [false, true]) {
    const { org, user, token } = await createApiContext();
    if (partner) await connectPartner({ viewer: await getUserViewer(user.id, org.id), apiUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
    const portal = await createTestPortal({ orgId: org.id, name: partner ? "Linked to the partner" : "No partner" });
    orgs.push({ partner, orgId: org.id, portalId: portal.id, token });
  }
  return orgs;
}

async function api(app: BenchApp, org: Org, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${org.token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

/** Links the organization's portal to the sandbox customer and waits until the link is verified. */
async function link(app: BenchApp, org: Org): Promise<void> {
  const { db } = await import("@/lib/db");
  await api(app, org, "PATCH", `/api/v1/portals/${org.portalId}`, { externalSystemIds: { partner: CUSTOMER } });
  const started = Date.now();
  for (;;) {
    const linked = await db.partnerLink.findFirst({ where: { portalId: org.portalId, status: "linked" } });
    if (linked) return;
    if (Date.now() - started > 30_000) throw new Error("the partner link was not verified within 30 s");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `count` small files uploaded through the API, `CONCURRENT` at a time; each file's id with when its upload completed. */
async function uploads(app: BenchApp, org: Org, count: number, tag: string): Promise<Map<string, number>> {
  const completed = new Map<string, number>();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const bytes = Buffer.from(`partner path ${tag} ${n} ${"x".repeat(2_000)}`);
      const filename = `path-${tag}-${n}.txt`;
      const started = await api(app, org, "POST", `/api/v1/portals/${org.portalId}/files`, { filename, contentType: "text/plain", size: bytes.length });
      const put = await fetch(String(started["upload_url"]), { method: "PUT", body: new Uint8Array(bytes), headers: { "content-type": "text/plain" } });
      if (put.status !== 200) throw new Error(`storage PUT answered ${put.status}`);
      await api(app, org, "POST", `/api/v1/portals/${org.portalId}/files/complete`, { file_id: started["file_id"], filename });
      completed.set(String(started["file_id"]), performance.now());
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT }, worker));
  return completed;
}

interface PathResult {
  partner: boolean;
  uploads: number;
  rps: number;
  serverCpuPerUploadMs: number;
  executorCpuPerUploadMs: number;
  pushed: number;
  duplicates: number;
  pushP50Ms: number | null;
  pushP99Ms: number | null;
}

async function phase(app: BenchApp, sandbox: PartnerSandbox, org: Org, count: number): Promise<PathResult> {
  let seen = sandbox.log.length;
  const arrivals = new Map<string, number>();
  let duplicates = 0;
  const watch = () => {
    for (const entry of sandbox.log.slice(seen)) {
      if (entry.kind !== "upload_received") continue;
      if (arrivals.has(entry.file_id)) duplicates++;
      else arrivals.set(entry.file_id, performance.now());
    }
    seen = sandbox.log.length;
  };
  const watcher = setInterval(watch, 10);
  const cpu0 = [app.server.cpuMs(), app.executor!.cpuMs()];
  const started = performance.now();
  const completed = await uploads(app, org, count, `${org.partner ? "p" : "n"}${seen}`);
  const seconds = (performance.now() - started) / 1000;
  const waitStarted = Date.now();
  for (;;) {
    watch();
    const done = org.partner ? arrivals.size >= completed.size : (await pendingEvents(org.orgId)) === 0;
    if (done) break;
    if (Date.now() - waitStarted > DRAIN_TIMEOUT_MS) throw new Error(`${arrivals.size} of ${completed.size} files at the partner after ${DRAIN_TIMEOUT_MS} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  clearInterval(watcher);
  await settled(app);
  const cpu1 = [app.server.cpuMs(), app.executor!.cpuMs()];
  // Entries logged between the last watch and now.
  watch();
  const latencies = [...arrivals]
    .filter(([id]) => completed.has(id))
    .map(([id, at]) => at - completed.get(id)!)
    .sort((a, b) => a - b);
  return {
    partner: org.partner,
    uploads: completed.size,
    rps: +(completed.size / seconds).toFixed(1),
    serverCpuPerUploadMs: +((cpu1[0]! - cpu0[0]!) / completed.size).toFixed(2),
    executorCpuPerUploadMs: +((cpu1[1]! - cpu0[1]!) / completed.size).toFixed(2),
    pushed: latencies.length,
    duplicates,
    pushP50Ms: latencies.length ? Math.round(quantile(latencies, 0.5)) : null,
    pushP99Ms: latencies.length ? Math.round(quantile(latencies, 0.99)) : null,
  };
}

async function runPartnerPathBench(): Promise<BenchRow[]> {
  const sandbox = await startPartnerSandbox();
  let orgs: Org[] = [];
  const app = await startBenchApp({
    databaseName: "client_portals_bench_partner_path",
    executorProcess: true,
    seed: async () => {
      orgs = await seed(sandbox);
    },
  });
  try {
    const results: PathResult[] = [];
    for (const org of orgs) {
      if (org.partner) await link(app, org);
      await phase(app, sandbox, org, WARM_UP); // warm-up: the routes and functions loaded and compiled
      const result = await phase(app, sandbox, org, UPLOADS);
      console.error(`  partner path, ${org.partner ? "connected" : "no partner"}: ${JSON.stringify(result)}`);
      results.push(result);
    }
    const [none, partner] = results as [PathResult, PathResult];
    return [
      {
        work: `Partner push path: server CPU per uploaded file (burst of ${UPLOADS}, ${CONCURRENT} concurrent)`,
        product: `${partner.serverCpuPerUploadMs} ms server, ${partner.executorCpuPerUploadMs} ms job engine; pushed p50 ${partner.pushP50Ms} ms, p99 ${partner.pushP99Ms} ms after the upload`,
        anchor: `no partner: ${none.serverCpuPerUploadMs} ms server, ${none.executorCpuPerUploadMs} ms job engine`,
        ratio: null,
        target: "each file pushed once (measured, no target)",
        met: partner.pushed === partner.uploads && partner.duplicates === 0,
        details: { none, partner },
      },
    ];
  } finally {
    await app.stop();
    await sandbox.close();
  }
}

export const partnerPathBench: Bench = { name: "event path, partner", run: runPartnerPathBench };

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const rows = await runPartnerPathBench();
  for (const r of rows) console.log(`${r.work}: ${r.product} (${r.anchor}): ${r.met ? "met" : "NOT met"}`);
  process.exit(rows.every((r) => r.met) ? 0 : 1);
}
