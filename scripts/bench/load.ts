import { Agent, request } from "node:http";

import autocannon from "autocannon";

// Load generators of the API benchmarks: autocannon for fixed requests, a chain-following loop
// for refresh grants. Every round reports throughput, latency and the server's CPU per request.

const CONNECTIONS = 16;
const ROUND_SECONDS = Number(process.env["BENCH_SECONDS"] ?? 6);
export const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3);

export interface RoundResult {
  rps: number;
  p50: number;
  p99: number;
  /** Server CPU per successful request, ms (null when the server's CPU cannot be read). */
  cpuMs: number | null;
  ok: number;
  failed: number;
}

export interface Target {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** CPU time of the process serving it so far, ms. */
  cpuMs: () => number;
}

const cpuPer = (before: number, after: number, ok: number) => (Number.isFinite(before) && ok > 0 ? +((after - before) / ok).toFixed(2) : null);

export async function hammer(target: Target, seconds = ROUND_SECONDS): Promise<RoundResult> {
  const before = target.cpuMs();
  const r = await autocannon({
    url: target.url,
    method: target.method ?? "GET",
    headers: target.headers,
    body: target.body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  const ok = r["2xx"];
  // Failures are reported, never folded silently into a lower rate.
  if (r.non2xx + r.errors + r.timeouts > 0)
    console.error(`  ${target.url}: failed ${JSON.stringify({ codes: r.statusCodeStats, errors: r.errors, timeouts: r.timeouts, resets: r.resets })}`);
  if (ok === 0 && r.non2xx + r.errors > 0) {
    // Nothing succeeded: show why once, rather than a table of zeros.
    const res = await fetch(target.url, { method: target.method ?? "GET", headers: target.headers, body: target.body });
    console.error(`${target.method ?? "GET"} ${target.url}: ${res.status} ${(await res.text()).slice(0, 500)}`);
  }
  return {
    rps: +(ok / r.duration).toFixed(1),
    p50: r.latency.p50,
    p99: r.latency.p99,
    cpuMs: cpuPer(before, target.cpuMs(), ok),
    ok,
    failed: r.non2xx + r.errors + r.timeouts,
  };
}

export interface RefreshSide {
  url: string;
  /** client_id:secret, sent as HTTP Basic. */
  auth: string;
  /** One refresh token per chain; each chain continues from the token its last response returned. */
  chains: string[];
  cpuMs: () => number;
}

/**
 * POSTs a form over a keep-alive connection of `agent` and reads the JSON answer. node:http, not
 * fetch: fetch's own work per request (about a millisecond of the load generator's CPU) made the
 * generator, not the servers, the bottleneck of the refresh rounds on a 2-core machine.
 */
function postForm(agent: Agent, url: URL, authorization: string, body: string): Promise<{ status: number; json: { refresh_token?: string; error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        agent,
        method: "POST",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          try {
            resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString("utf8")) as { refresh_token?: string; error?: string } });
          } catch (error) {
            reject(error as Error);
          }
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The `q` quantile of ascending `sorted` values, to 0.1 ms. */
export const quantile = (sorted: number[], q: number) => +(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN).toFixed(1);

/** Refresh grants for `seconds`, one loop per chain (16 chains: 16 requests in flight). */
export async function refreshRound(side: RefreshSide, seconds = ROUND_SECONDS): Promise<RoundResult> {
  const end = Date.now() + seconds * 1000;
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const authorization = "Basic " + Buffer.from(side.auth).toString("base64");
  const url = new URL(side.url);
  const agent = new Agent({ keepAlive: true, maxSockets: side.chains.length });
  const before = side.cpuMs();
  const started = performance.now();
  await Promise.all(
    side.chains.map(async (_, i) => {
      while (Date.now() < end) {
        const t0 = performance.now();
        const { status, json } = await postForm(agent, url, authorization, `grant_type=refresh_token&refresh_token=${encodeURIComponent(side.chains[i]!)}`);
        latencies.push(performance.now() - t0);
        if (status === 200 && json.refresh_token) {
          ok++;
          side.chains[i] = json.refresh_token;
        } else {
          failed++;
          if (failed <= 3) console.error(`refresh at ${side.url}: ${status} ${JSON.stringify(json)}`);
        }
      }
    }),
  );
  agent.destroy();
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    rps: +(ok / elapsed).toFixed(1),
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    cpuMs: cpuPer(before, side.cpuMs(), ok),
    ok,
    failed,
  };
}

export interface PacedResult {
  p50: number;
  p99: number;
  ok: number;
  failed: number;
  /** Every latency, ms, ascending (for percentiles over several calls). */
  latencies: number[];
}

/**
 * GETs `url` at a steady `rate` per second for `seconds`: one request every 1000/rate ms whether or
 * not the ones before have answered (an open loop, as users arrive), each on a keep-alive
 * connection of its own while others are out. Latency counts from the time the request was due,
 * so a server that falls behind shows it (no coordinated omission). autocannon's `overallRate`
 * is not steady: each connection sends its share of the second at once, then waits for the next
 * second, which turns 50 requests/s into bursts of 8 at a time.
 */
export async function pacedGets({
  url,
  headers,
  rate,
  seconds,
}: {
  url: string;
  headers: Record<string, string>;
  rate: number;
  seconds: number;
}): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  const interval = 1000 / rate;
  const count = Math.round(rate * seconds);
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  const start = performance.now();
  const one = (due: number) =>
    new Promise<void>((resolve) => {
      const req = request(target, { agent, method: "GET", headers }, (res) => {
        res.resume();
        res.on("end", () => {
          latencies.push(performance.now() - due);
          if (res.statusCode === 200) ok++;
          else failed++;
          resolve();
        });
      });
      req.on("error", () => {
        failed++;
        resolve();
      });
      req.end();
    });
  const sent: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    sent.push(one(due));
  }
  await Promise.all(sent);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), ok, failed, latencies };
}

/** Runs the sides in turn, ROUNDS times (interleaved, so drift on a busy machine hits all alike). */
export async function interleave<K extends string>(sides: Record<K, () => Promise<RoundResult>>, rounds = ROUNDS): Promise<Record<K, RoundResult[]>> {
  const names = Object.keys(sides) as K[];
  const out = Object.fromEntries(names.map((n) => [n, [] as RoundResult[]])) as Record<K, RoundResult[]>;
  for (let i = 0; i < rounds; i++) {
    for (const name of names) {
      const r = await sides[name]();
      out[name].push(r);
      console.error(`  round ${i + 1} ${name}: ${JSON.stringify(r)}`);
    }
  }
  return out;
}

/** The median round by throughput. */
export function medianRound(rounds: RoundResult[]): RoundResult {
  return [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;
}

export const describe = (r: RoundResult, unit: string) =>
  `${r.rps} ${unit}/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.cpuMs !== null ? `, ${r.cpuMs} ms CPU` : ""}${r.failed ? `, ${r.failed} failed` : ""}`;
