import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** One line of the table `npm run bench` prints: what was measured, against what, and the target. */
export interface BenchRow {
  work: string;
  /** The product's figure, as printed (e.g. "812 grants/s, p50 18 ms, 1.4 ms CPU"). */
  product: string;
  /** The anchor's figure, or "—" when the target is absolute. */
  anchor: string;
  /** product / anchor (or the figure the target is on), null when there is none. */
  ratio: number | null;
  target: string;
  met: boolean;
  /** Every measured number, for bench/results.json. */
  details?: unknown;
}

/** A benchmark module: `npm run bench` runs every one of scripts/bench/index.ts's list in turn. */
export interface Bench {
  name: string;
  run(): Promise<BenchRow[]>;
}

const root = fileURLToPath(new URL("../..", import.meta.url));

export function printTable(rows: BenchRow[]): void {
  const cells = rows.map((r) => [r.work, r.product, r.anchor, r.ratio === null ? "—" : r.ratio.toFixed(2), r.target, r.met ? "yes" : "NO"]);
  const head = ["Work", "Product", "Anchor", "Ratio", "Target", "Met"];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => "| " + c.map((v, i) => v.padEnd(widths[i]!)).join(" | ") + " |";
  console.log([line(head), "|" + widths.map((w) => "-".repeat(w + 2)).join("|") + "|", ...cells.map(line)].join("\n"));
}

/** bench/results.json (git-ignored: the figures of this machine and this run, not a reference). */
export function writeResults(rows: BenchRow[], startedAt: Date): string {
  const file = path.join(root, "bench", "results.json");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ startedAt, finishedAt: new Date(), node: process.version, rows }, null, 2) + "\n");
  return file;
}

/** What a "large against small" benchmark measures: the median of each and their ratio against a limit. */
export interface ScalingResult {
  smallMs: number;
  largeMs: number;
  ratio: number;
  passed: boolean;
}

/** A benchmark whose target is that the large case costs under `limit` times the small one (folder view, portal list). */
export function scalingBench(name: string, work: string, sizes: { small: string; large: string }, limit: number, measure: () => Promise<ScalingResult>): Bench {
  return {
    name,
    async run() {
      const r = await measure();
      return [
        {
          work,
          product: `${r.largeMs} ms at ${sizes.large}`,
          anchor: `${r.smallMs} ms at ${sizes.small}`,
          ratio: r.ratio,
          target: `< ${limit}`,
          met: r.passed,
          details: r,
        },
      ];
    },
  };
}

/**
 * Times `measure` on the small and the large case, interleaved (5 warm-up rounds, then `runs`), and
 * compares their medians: the large one must stay under `limit` times the small one.
 */
export async function compareMedians<T>(small: T, large: T, measure: (c: T) => Promise<number>, runs: number, limit: number): Promise<ScalingResult> {
  for (let i = 0; i < 5; i++) await Promise.all([measure(small), measure(large)]);
  const smallTimes: number[] = [];
  const largeTimes: number[] = [];
  for (let i = 0; i < runs; i++) {
    smallTimes.push(await measure(small));
    largeTimes.push(await measure(large));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const smallMs = Math.round(median(smallTimes) * 10) / 10;
  const largeMs = Math.round(median(largeTimes) * 10) / 10;
  const ratio = Math.round((largeMs / smallMs) * 100) / 100;
  return { smallMs, largeMs, ratio, passed: ratio < limit };
}

/** What a streaming benchmark measures: the resident memory a 100 MB transfer adds, against a limit. */
export interface MemoryResult {
  bytes: number;
  seconds: number;
  mbPerSecond: number;
  baselineRssMb: number;
  peakRssMb: number;
  growthMb: number;
  passed: boolean;
}

/** A benchmark whose target is resident memory growth under `limitMb` (file_url ingest, partner push). */
export function memoryBench(name: string, work: string, limitMb: number, measure: () => Promise<MemoryResult>): Bench {
  return {
    name,
    async run() {
      const r = await measure();
      return [
        { work, product: `RSS +${r.growthMb} MB (${r.mbPerSecond} MB/s)`, anchor: "—", ratio: null, target: `< ${limitMb} MB`, met: r.passed, details: r },
      ];
    },
  };
}
