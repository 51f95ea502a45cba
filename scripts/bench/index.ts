/**
 * Every benchmark, one after another, in one run: one table (work, product, anchor, ratio,
 * target, met) and bench/results.json; exits 1 when a target is missed. The API benchmarks need
 * the benchmark build (`BENCH_BUILD=1 npm run build`: the production build plus the
 * framework-floor route). Add a benchmark by adding its module to the list.
 */
import { apiBench } from "./api.ts";
import { bulkRequestBench } from "./bulk-request.ts";
import { eventPathBench } from "./event-path.ts";
import { ingestBench } from "./file-url-ingest.ts";
import { folderViewBench } from "./folder-view.ts";
import { inboxBench } from "./inbox.ts";
import { partnerPathBench } from "./partner-path.ts";
import { partnerPushBench } from "./partner-push.ts";
import { portalListBench } from "./portal-list.ts";
import { printTable, writeResults, type Bench, type BenchRow } from "./report.ts";
import { webhookBench } from "./webhooks.ts";

const BENCHES: Bench[] = [
  apiBench,
  webhookBench,
  ingestBench,
  folderViewBench,
  portalListBench,
  partnerPushBench,
  bulkRequestBench,
  inboxBench,
  eventPathBench,
  partnerPathBench,
];

// Each benchmark makes its own database: on DATABASE_URL's server when it is set, otherwise on an
// embedded PostgreSQL server of its own (durable settings, as a deployed server has them).
const only = process.env["BENCH_ONLY"]?.split(",");
const startedAt = new Date();
const rows: BenchRow[] = [];
for (const bench of BENCHES) {
  if (only && !only.some((name) => bench.name.toLowerCase().includes(name.toLowerCase()))) continue;
  console.error(`== ${bench.name}`);
  rows.push(...(await bench.run()));
}
printTable(rows);
console.log(`results: ${writeResults(rows, startedAt)}`);
process.exit(rows.every((r) => r.met) ? 0 : 1);
