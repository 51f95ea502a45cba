import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";

import { checkContention, checkCounters, createContentionOrg, figures, percentile, runContention, type Sql } from "../scripts/test/contention-load.ts";
import { SANDBOX_API_KEY, startPartnerSandbox, type PartnerSandbox } from "../scripts/partner-sandbox.ts";
import { startServices, until, type Services } from "./harness.ts";

// Contention in full (docs/database.md), against the production build: 16 API clients hammer one
// portal with every kind of write for 60 s while the server's event relay and the partner
// verification (run by the job engine against the sandbox partner) work; and the partner id saved
// and cleared again 0-400 ms later, 500 cycles. No answer is a 5xx; every 2xx change is in the
// database exactly once with exactly one event, handed to the engine once; the counters are exact.

const CLIENTS = 16;
const SECONDS = Number(process.env["CONTENTION_SECONDS"] ?? 60);
const LOOPS = 4;
const CYCLES = 500;
/** A partner id belongs to one portal of an organization: each loop saves its own (the first is the issue's). */
const PARTNER_IDS = ["234567", "123456", "345678", "456789"];
/** What the server logs for each transaction it ran again (lib/db.ts TRANSACTION_RETRIED). */
const RETRIED = "transaction retried after a conflict";

let services: Services;
let sandbox: PartnerSandbox;
let pool: pg.Pool;
const lines: string[] = [];

beforeAll(async () => {
  services = await startServices();
  sandbox = await startPartnerSandbox();
  Object.assign(process.env, services.env);
  pool = new pg.Pool({ connectionString: services.env["DATABASE_URL"], max: 2 });
}, 600_000);

afterAll(async () => {
  process.stdout.write(`\n[faults] contention figures\n${lines.join("\n")}\n`);
  await pool?.end().catch(() => undefined);
  await sandbox?.close();
  await services?.stop();
}, 60_000);

const sql: Sql = async (text, values = []) => (await pool.query(text, values)).rows;
const retriedSoFar = () => services.output().split(RETRIED).length - 1;

/** Every outbox row of the organization dispatched, then each handed to the engine exactly once. */
async function handedOverOnce(orgId: string): Promise<void> {
  await until(
    "every event dispatched",
    async () =>
      (await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "Event" WHERE "orgId" = $1::uuid AND "dispatchedAt" IS NULL`, [orgId]))[0]!.n === 0
        ? true
        : undefined,
    120_000,
  );
  const ids = new Set((await sql<{ id: string }>(`SELECT id FROM "Event" WHERE "orgId" = $1::uuid`, [orgId])).map((e) => e.id));
  const accepted = services.executor.events.filter((e) => ids.has(e.id) && !e.duplicate);
  expect([accepted.length, new Set(accepted.map((e) => e.id)).size]).toEqual([ids.size, ids.size]);
}

it(`${CLIENTS} clients write to one portal for ${SECONDS} s with the relay and the partner verification running: no 5xx, every change once with one event`, async () => {
  const { orgId, tokens, states, portalIds } = await createContentionOrg({ clients: CLIENTS, portals: 1, partnerUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
  const portalId = portalIds[0]!;
  const before = retriedSoFar();
  const run = await runContention({ baseUrl: services.baseUrl, tokens, portalId, states, durationMs: SECONDS * 1000 });
  lines.push(figures(`contention, ${CLIENTS} clients`, run, retriedSoFar() - before, SECONDS));
  expect(run.failures).toEqual([]);
  expect(run.refused).toEqual([]);
  await handedOverOnce(orgId);
  const check = await checkContention(sql, run, orgId, portalId);
  expect(check.problems).toEqual([]);
  expect(await checkCounters(services.baseUrl, tokens[0]!, run, portalId)).toEqual([]);
}, 600_000);

it(`the partner id saved and cleared 0-400 ms later, ${CYCLES} cycles (${LOOPS} portals at once) while the verification runs: never a 5xx`, async () => {
  const { orgId, tokens, portalIds } = await createContentionOrg({ clients: LOOPS, portals: LOOPS, partnerUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
  const before = retriedSoFar();
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  const patch = async (token: string, portalId: string, partner: string | null) => {
    const started = performance.now();
    const res = await fetch(`${services.baseUrl}/api/v1/portals/${portalId}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ externalSystemIds: { partner } }),
    });
    await res.text();
    latencies.push(performance.now() - started);
    statuses[res.status] = (statuses[res.status] ?? 0) + 1;
  };
  await Promise.all(
    portalIds.map(async (portalId, i) => {
      for (let cycle = 0; cycle < CYCLES / LOOPS; cycle++) {
        await patch(tokens[i]!, portalId, PARTNER_IDS[i]!);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 400));
        await patch(tokens[i]!, portalId, null);
      }
    }),
  );
  lines.push(
    `partner loop: ${CYCLES} cycles (${CYCLES * 2} requests); statuses ${JSON.stringify(statuses)}; ` +
      `p99 ${percentile(latencies, 99).toFixed(0)} ms; transactions retried: ${retriedSoFar() - before}`,
  );
  expect(statuses).toEqual({ 200: CYCLES * 2 });
  await handedOverOnce(orgId);
  const changed = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM "Event" WHERE "orgId" = $1::uuid AND type = 'partner.link_changed'`, [orgId]);
  expect(changed[0]!.n).toBe(CYCLES * 2);
  const links = await sql<{ status: string }>(`SELECT status::text FROM "PartnerLink" WHERE "orgId" = $1::uuid`, [orgId]);
  expect(links.map((l) => l.status)).toEqual(Array(LOOPS).fill("unlinked"));
}, 600_000);
