import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { describeCycle, folderCycles, folderGraph, folderOf, productionFiles } from "./folder-graph";

// No import cycles between folders (docs/architecture.md, "Layers and what may import what"):
// the top-level folders, lib's second-level folders and lib's top-level modules form a graph
// without cycles, so each can be understood, tested and moved with what it depends on only.

const root = fileURLToPath(new URL("../..", import.meta.url));

describe("folder import graph", () => {
  it("has no cycle in the product", () => {
    const graph = folderGraph(productionFiles(root));
    expect(graph.size).toBeGreaterThan(20);
    expect(folderCycles(graph).map((c) => describeCycle(graph, c))).toEqual([]);
  });

  it("finds a cycle between two lib folders, through a relative import too", () => {
    const graph = folderGraph([
      { rel: "lib/access/policy.ts", source: 'import { x } from "@/lib/guests/invite";\n' },
      { rel: "lib/guests/invite.ts", source: 'import type { Viewer } from "../access/viewer";\n' },
      { rel: "lib/db.ts", source: 'import pg from "pg";\n' },
    ]);
    const cycles = folderCycles(graph);
    expect(cycles).toEqual([["lib/access", "lib/guests"]]);
    expect(describeCycle(graph, cycles[0]!)).toContain("lib/guests/invite.ts imports ../access/viewer");
  });

  it("finds a cycle through three folders and a dynamic import", () => {
    const graph = folderGraph([
      { rel: "app/page.tsx", source: 'import { A } from "@/components/a";\n' },
      { rel: "components/a.tsx", source: 'export const A = () => import("@/lib/portals/get");\n' },
      { rel: "lib/portals/get.ts", source: 'export { x } from "@/app/actions";\n' },
    ]);
    expect(folderCycles(graph)).toEqual([["app", "components", "lib/portals"]]);
  });

  it("ignores tests, test support and packages", () => {
    const graph = folderGraph([
      { rel: "lib/access/policy.ts", source: 'import { x } from "@/lib/test-support/fixtures";\nimport { z } from "zod";\n' },
      { rel: "lib/test-support/fixtures.ts", source: 'import { y } from "@/lib/access/policy";\n' },
    ]);
    expect(folderCycles(graph)).toEqual([]);
  });

  it("names lib's folders and modules as nodes", () => {
    expect(folderOf("lib/access/policy.ts")).toBe("lib/access");
    expect(folderOf("lib/db.ts")).toBe("lib/db");
    expect(folderOf("app/(web)/page.tsx")).toBe("app");
    expect(folderOf("proxy.ts")).toBe("proxy");
  });
});
