/**
 * Benchmark: a 100 MB file pushed to the sandbox partner through the real attempt function
 * (attemptPartnerPush): read twice from the embedded S3 as a stream (SHA-256 first, then the
 * upload), sent through lib/outbound to a short-lived upload URL that checks the SHA-256. Resident
 * memory is sampled every 10 ms; the growth over the baseline taken after a warm-up push must
 * stay under 64 MB. The sandbox runs in this process and is counted too.
 *
 *   npm run bench                      # all benchmarks
 *   npx tsx --conditions=react-server scripts/bench/partner-push.ts
 */
import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { pathToFileURL } from "node:url";

import { startPartnerSandbox } from "../partner-sandbox.ts";
import { memoryBench, type Bench, type MemoryResult } from "./report.ts";
import { startBenchServices } from "./services.ts";

const MB = 1024 * 1024;
const SIZE = 100 * MB;
const LIMIT_MB = 64;

type PartnerPushBenchResult = MemoryResult;

/** `size` bytes of a repeated 64 KiB chunk, produced as they are read. */
function body(size: number): Readable {
  const chunk = Buffer.alloc(64 * 1024, 0x42);
  let left = size;
  return new Readable({
    read() {
      if (left <= 0) return void this.push(null);
      const n = Math.min(chunk.length, left);
      left -= n;
      this.push(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

const mb = (bytes: number) => Math.round((bytes / MB) * 10) / 10;

async function runPartnerPushBench(): Promise<PartnerPushBenchResult> {
  const services = await startBenchServices({
    databaseName: "client_portals_bench_partner",
    tmpPrefix: "cp-bench-partner-",
    env: { OUTBOUND_ALLOW_PRIVATE: "true" },
  });
  const sandbox = await startPartnerSandbox({ uploadUrlTtlMs: 10 * 60_000 });
  try {
    const { db } = await import("@/lib/db");
    const { getUserViewer } = await import("@/lib/access/viewer");
    const { connectPartner } = await import("@/lib/partner/connection");
    const { attemptPartnerPush } = await import("@/lib/partner/push");
    const { uploadStream } = await import("@/lib/storage/upload-stream");
    const { fileStorageKey } = await import("@/lib/storage/s3");
    const { createTestOrg, createTestPortal, createTestUser } = await import("@/lib/test-support/fixtures");

    const org = await createTestOrg({ name: "Partner benchmark" });
    const user = await createTestUser({ orgId: org.id, role: "admin" });
    const portal = await createTestPortal({ orgId: org.id });
    await connectPartner({ viewer: await getUserViewer(user.id, org.id), apiUrl: sandbox.url, apiKey: sandbox.apiKey });
    await db.partnerLink.create({
      data: { orgId: org.id, portalId: portal.id, status: "linked", customerId: "123456", tenantId: "t", displayName: "Bench", verifiedAt: new Date() },
    });

    /** A stored, registered file of `size` bytes and its push row. */
    const prepare = async (size: number) => {
      const id = randomUUID();
      const storageKey = fileStorageKey(org.id, id);
      await uploadStream({ key: storageKey, body: body(size), contentType: "application/octet-stream" });
      await db.fileEntry.create({
        data: { id, orgId: org.id, portalId: portal.id, name: `bench-${size}.bin`, size, storageKey, status: "registered", registeredAt: new Date() },
      });
      return db.partnerPush.create({ data: { orgId: org.id, portalId: portal.id, entityId: id, fileId: id, event: "file.uploaded", customerId: "123456" } });
    };
    const push = async (pushId: string) => {
      const result = await attemptPartnerPush({ pushId, number: 1 });
      if (result.outcome !== "succeeded") throw new Error(`push ended ${JSON.stringify(result)}`);
    };

    // Warm-up: modules, connections and JIT, so the baseline is the steady state.
    await push((await prepare(20 * MB)).id);
    const measured = await prepare(SIZE);
    global.gc?.();
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 10);
    const started = performance.now();
    await push(measured.id);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage.rss());
    const received = sandbox.log.find((e) => e.kind === "upload_received" && e.file_id === measured.entityId);
    if (!received || received.kind !== "upload_received" || received.size !== SIZE) throw new Error("the sandbox did not receive the 100 MB file");
    await db.$disconnect();

    const growth = peak - baseline;
    return {
      bytes: SIZE,
      seconds: Math.round(seconds * 100) / 100,
      mbPerSecond: Math.round((SIZE / MB / seconds) * 10) / 10,
      baselineRssMb: mb(baseline),
      peakRssMb: mb(peak),
      growthMb: mb(growth),
      passed: growth < LIMIT_MB * MB,
    };
  } finally {
    await sandbox.close();
    await services.stop();
  }
}

function printPartnerPushResult(r: PartnerPushBenchResult): void {
  console.log(`partner push of ${mb(r.bytes)} MB (hashed, then streamed): ${r.seconds} s (${r.mbPerSecond} MB/s)`);
  console.log(`  RSS baseline ${r.baselineRssMb} MB, peak ${r.peakRssMb} MB, growth ${r.growthMb} MB (limit ${LIMIT_MB} MB): ${r.passed ? "PASS" : "FAIL"}`);
}

export const partnerPushBench: Bench = memoryBench("partner push", "100 MB partner push", LIMIT_MB, runPartnerPushBench);

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runPartnerPushBench();
  printPartnerPushResult(result);
  process.exit(result.passed ? 0 : 1);
}
