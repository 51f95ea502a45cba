/**
 * Benchmark: a 100 MB one-step upload (file_url) through the real domain function, from a
 * loopback server into the embedded S3, with a database (DATABASE_URL's server, or an embedded one).
 * Resident memory is sampled every 10 ms; the growth over the baseline taken after a warm-up
 * ingest must stay under 64 MB: the body is streamed, one 8 MB part at a time.
 *
 *   npm run bench                      # all benchmarks
 *   npx tsx scripts/bench/file-url-ingest.ts
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

import { memoryBench, type Bench, type MemoryResult } from "./report.ts";
import { startBenchServices } from "./services.ts";

const MB = 1024 * 1024;
const SIZE = 100 * MB;
const LIMIT_MB = 64;

type IngestBenchResult = MemoryResult;

/** Serves `size` bytes of one repeated 64 KiB chunk under backpressure: the server holds no body. */
function startBodyServer(): Promise<Server> {
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  const server = createServer((req, res) => {
    const size = Number(new URL(req.url ?? "/", "http://x").searchParams.get("size") ?? "0");
    res.writeHead(200, { "content-type": "application/octet-stream" });
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          res.once("drain", pump);
          return;
        }
      }
      res.end();
    };
    res.on("error", () => undefined);
    pump();
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

async function runFileUrlIngestBench(): Promise<IngestBenchResult> {
  const services = await startBenchServices({ databaseName: "client_portals_bench", tmpPrefix: "cp-bench-", env: { OUTBOUND_ALLOW_PRIVATE: "true" } });
  const server = await startBodyServer();
  try {
    // Imported once the environment is set: lib/env reads it on first use.
    const { uploadFromUrl } = await import("@/lib/files/upload-from-url");
    const { createTestOrg, createTestPortal, createTestUser } = await import("@/lib/test-support/fixtures");
    const { db } = await import("@/lib/db");
    const { getUserViewer } = await import("@/lib/access/viewer");

    const org = await createTestOrg({ name: "Benchmark" });
    const user = await createTestUser({ orgId: org.id, role: "admin" });
    const portal = await createTestPortal({ orgId: org.id });
    const { port } = server.address() as AddressInfo;
    const viewer = await getUserViewer(user.id, org.id);
    const ingest = (size: number) =>
      uploadFromUrl({ viewer, portalId: portal.id, filename: `bench-${size}.bin`, fileUrl: `http://127.0.0.1:${port}/?size=${size}` });

    // Warm-up: modules, connections and JIT, so the baseline is the steady state.
    await ingest(20 * MB);
    global.gc?.();
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);

    const started = performance.now();
    const file = await ingest(SIZE);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    if (file.size !== SIZE) throw new Error(`stored ${file.size} bytes, expected ${SIZE}`);
    await db.$disconnect();

    const growth = peak - baseline;
    return {
      bytes: file.size,
      seconds: Math.round(seconds * 100) / 100,
      mbPerSecond: Math.round((SIZE / MB / seconds) * 10) / 10,
      baselineRssMb: mb(baseline),
      peakRssMb: mb(peak),
      growthMb: mb(growth),
      passed: growth < LIMIT_MB * MB,
    };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await services.stop();
  }
}

function printIngestResult(r: IngestBenchResult): void {
  console.log(`file_url ingest of ${mb(r.bytes)} MB: ${r.seconds} s (${r.mbPerSecond} MB/s)`);
  console.log(`  RSS baseline ${r.baselineRssMb} MB, peak ${r.peakRssMb} MB, growth ${r.growthMb} MB (limit ${LIMIT_MB} MB): ${r.passed ? "PASS" : "FAIL"}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runFileUrlIngestBench();
  printIngestResult(result);
  process.exit(result.passed ? 0 : 1);
}

export const ingestBench: Bench = memoryBench("file_url ingest", "100 MB file_url ingest", LIMIT_MB, runFileUrlIngestBench);
