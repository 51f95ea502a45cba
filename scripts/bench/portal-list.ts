/**
 * Benchmark: the portal list page's server reads (searchPortals for the first page and the
 * template choices, the workflow states, the organization's profile), as app/(web)/org/[orgId]/page.tsx
 * makes them, for an organization of 10,000 portals against one of 100, through the real domain
 * functions and database. The median for 10,000 must stay under twice that for 100.
 *
 *   npm run bench                      # all benchmarks
 *   npx tsx --conditions=react-server scripts/bench/portal-list.ts
 */
import { pathToFileURL } from "node:url";

import { compareMedians, scalingBench, type Bench, type ScalingResult } from "./report.ts";
import { startBenchServices } from "./services.ts";

const RATIO_LIMIT = 2;
const RUNS = 25;

type PortalListBenchResult = ScalingResult;

async function runPortalListBench(): Promise<PortalListBenchResult> {
  const services = await startBenchServices({ databaseName: "client_portals_bench_portal_list", tmpPrefix: "cp-bench-list-" });
  try {
    const { searchPortals, PortalSearchSchema } = await import("@/lib/portals/search-portals");
    const { listWorkflowStates } = await import("@/lib/workflow/list-workflow-states");
    const { getOrgProfile } = await import("@/lib/organization/profile");
    const { createTestOrg, createTestUser, createTestWorkflowStates } = await import("@/lib/test-support/fixtures");
    const { db } = await import("@/lib/db");
    const { getUserViewer } = await import("@/lib/access/viewer");

    const orgWith = async (count: number) => {
      const org = await createTestOrg({ name: `List benchmark ${count}`, plan: "business" });
      const admin = await createTestUser({ orgId: org.id, role: "admin" });
      const states = await createTestWorkflowStates(org.id);
      const rows = Array.from({ length: count }, (_, i) => ({
        orgId: org.id,
        name: `Client ${String((i * 7919) % count).padStart(5, "0")}`,
        tags: i % 10 === 0 ? ["vip"] : ["standard"],
        workflowStateId: states[i % states.length]!.id,
        archived: i % 25 === 0,
        isTemplate: i % 500 === 0,
        createdAt: new Date(Date.now() - i * 60_000),
        lastActivityAt: i % 3 === 0 ? new Date(Date.now() - i * 1000) : null,
      }));
      for (let i = 0; i < rows.length; i += 2000) await db.portal.createMany({ data: rows.slice(i, i + 2000) });
      // Three tasks on every portal of the first page, so the counters are counted.
      const first = await db.portal.findMany({ where: { orgId: org.id }, orderBy: { name: "asc" }, take: 60, select: { id: true } });
      await db.task.createMany({
        data: first.flatMap((p) =>
          [0, 1, 2].map((k) => ({ orgId: org.id, portalId: p.id, title: `Task ${k}`, status: k === 0 ? ("Done" as const) : ("Open" as const) })),
        ),
      });
      await db.$executeRawUnsafe(`ANALYZE "Portal"`);
      await db.$executeRawUnsafe(`ANALYZE "Task"`);
      return getUserViewer(admin.id, org.id);
    };
    const small = await orgWith(100);
    const large = await orgWith(10_000);

    const page = async (viewer: Awaited<ReturnType<typeof orgWith>>) => {
      const started = performance.now();
      await Promise.all([
        searchPortals({ viewer, search: PortalSearchSchema.parse({}) }),
        listWorkflowStates({ viewer }),
        getOrgProfile({ viewer }),
        searchPortals({ viewer, search: PortalSearchSchema.parse({ templates: "1" }), pageSize: 200 }),
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

function printPortalListResult(r: PortalListBenchResult): void {
  console.log(`portal list page reads (median of ${RUNS}): 100 portals ${r.smallMs} ms, 10,000 portals ${r.largeMs} ms`);
  console.log(`  ratio ${r.ratio} (limit ${RATIO_LIMIT}): ${r.passed ? "PASS" : "FAIL"}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const result = await runPortalListBench();
  printPortalListResult(result);
  process.exit(result.passed ? 0 : 1);
}

export const portalListBench: Bench = scalingBench(
  "portal list",
  "Portal list page reads, 10k vs 100 portals",
  { small: "100", large: "10k" },
  RATIO_LIMIT,
  runPortalListBench,
);
