/**
 * Benchmark: the portal page's folder reads (getFolderView for the first page of the root in two
 * sort orders, and getFolderTree) on a portal of 10,000 files against one of 100 files, through
 * the real domain functions and database. The median over repeated runs for 10,000 files must
 * stay under twice that for 100.
 *
 *   npm run bench                      # all benchmarks
 *   npx tsx scripts/bench/folder-view.ts
 */
import { pathToFileURL } from "node:url";

import { compareMedians, scalingBench, type Bench, type ScalingResult } from "./report.ts";
import { startBenchServices } from "./services.ts";

const RATIO_LIMIT = 2;
const RUNS = 25;

type FolderViewBenchResult = ScalingResult;

async function runFolderViewBench(): Promise<FolderViewBenchResult> {
  const services = await startBenchServices({ databaseName: "client_portals_bench_folders", tmpPrefix: "cp-bench-folders-" });
  try {
    const { getFolderTree, getFolderView } = await import("@/lib/files/folder-view");
    const { createTestOrg, createTestPortal, createTestUser } = await import("@/lib/test-support/fixtures");
    const { db } = await import("@/lib/db");
    const { getUserViewer } = await import("@/lib/access/viewer");

    const org = await createTestOrg({ name: "Folder benchmark" });
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => createTestUser({ orgId: org.id, role: "member", name: `Uploader ${i}` })));
    const viewer = await getUserViewer(users[0]!.id, org.id);
    const portalWith = async (files: number) => {
      const portal = await createTestPortal({ orgId: org.id });
      const task = await db.task.create({ data: { orgId: org.id, portalId: portal.id, title: "Linked task" } });
      const folders = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          db.fileEntry.create({ data: { orgId: org.id, portalId: portal.id, isFolder: true, name: `Folder ${i}`, registeredAt: new Date() } }),
        ),
      );
      // Most files in the root (the page that has to sort them), the rest spread over the folders.
      const rows = Array.from({ length: files }, (_, i) => ({
        orgId: org.id,
        portalId: portal.id,
        parentId: i % 4 === 0 ? folders[i % folders.length]!.id : null,
        name: `File ${String(i).padStart(5, "0")}.pdf`,
        extension: "pdf",
        size: (i * 7919) % 100_000,
        uploadedById: users[i % users.length]!.id,
        taskId: i % 10 === 0 ? task.id : null,
        registeredAt: new Date(Date.now() - i * 1000),
      }));
      for (let i = 0; i < rows.length; i += 2000) await db.fileEntry.createMany({ data: rows.slice(i, i + 2000) });
      await db.$executeRawUnsafe(`ANALYZE "FileEntry"`);
      return portal.id;
    };
    const small = await portalWith(100);
    const large = await portalWith(10_000);

    const page = async (portalId: string) => {
      const started = performance.now();
      await Promise.all([
        getFolderView({ viewer, portalId, folderId: "main", sort: "name" }),
        getFolderView({ viewer, portalId, folderId: "main", sort: "uploader", dir: "desc" }),
        getFolderTree({ viewer, portalId }),
      ]);
      return performance.now() - started;
    };
    const result = await compareMedians(small, large, page, RUNS, RATIO_LIMIT);
    await db.$disconnect();
    return result;
  } finally {
    await services.stop();
  }
}

function printFolderViewResult(r: FolderViewBenchResult): void {
  console.log(`portal page folder reads (median of ${RUNS}): 100 files ${r.smallMs} ms, 10,000 files ${r.largeMs} ms`);
  console.log(`  ratio ${r.ratio} (limit ${RATIO_LIMIT}): ${r.passed ? "PASS" : "FAIL"}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runFolderViewBench();
  printFolderViewResult(result);
  process.exit(result.passed ? 0 : 1);
}

export const folderViewBench: Bench = scalingBench(
  "folder view",
  "Portal page folder reads, 10k vs 100 files",
  { small: "100", large: "10k" },
  RATIO_LIMIT,
  runFolderViewBench,
);
