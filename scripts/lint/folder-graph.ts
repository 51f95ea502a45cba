import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * The import graph between folders: top-level folders (app, components, inngest, lib, server,
 * ...) and, inside lib/, each second-level folder (lib/access, lib/guests, ...) and each
 * top-level module (lib/db, lib/errors, ...). Production code only: tests and test support
 * (`*.test.ts`, `test-support/`, the top-level `test/`) may reach across freely, and generated code
 * is a leaf.
 */

/** Folders whose production modules are part of the graph. */
const PRODUCTION_ROOTS = ["app", "components", "inngest", "lib", "server"];

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const IGNORED_DIRS = new Set(["node_modules", "generated", "test-support", ".next"]);

function isProductionFile(rel: string): boolean {
  const parts = rel.split("/");
  if (parts.some((p) => IGNORED_DIRS.has(p))) return false;
  return SOURCE.test(rel) && !/\.test\.tsx?$/.test(rel) && !rel.endsWith(".d.ts");
}

/** The graph node of a file (a path relative to the root, with `/`): `lib/access`, `lib/db`, `app`. */
export function folderOf(rel: string): string {
  const parts = rel.split("/");
  if (parts[0] !== "lib") return parts.length > 1 ? parts[0]! : rel.replace(SOURCE, "");
  if (parts.length === 2) return `lib/${parts[1]!.replace(SOURCE, "")}`;
  return `lib/${parts[1]}`;
}

/** The module specifiers a source file imports (static, dynamic and re-exports; types included). */
function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\bfrom\s+["']([^"']+)["']/g, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g, /^\s*import\s+["']([^"']+)["']/gm];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) found.push(m[1]!);
  return found;
}

/** The file an import points to, relative to the root, or undefined for a package. */
function resolveImport(fromRel: string, specifier: string): string | undefined {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.posix.normalize(path.posix.join(path.posix.dirname(fromRel), specifier));
  return undefined;
}

export type FolderGraph = Map<string, Map<string, string>>;

/** Edges folder -> folder, each with one file that makes it (for the message). */
export function folderGraph(files: { rel: string; source: string }[]): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const { rel, source } of files) {
    if (!isProductionFile(rel)) continue;
    const from = folderOf(rel);
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const specifier of importsOf(source)) {
      const target = resolveImport(rel, specifier);
      if (target === undefined || !isProductionFile(`${target}.ts`)) continue;
      const to = folderOf(target);
      if (to !== from && !edges.has(to)) edges.set(to, `${rel} imports ${specifier}`);
    }
  }
  return graph;
}

/** The strongly connected components with more than one folder (Tarjan): each is a cycle. */
export function folderCycles(graph: FolderGraph): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v);
  return found;
}

/** A cycle as the edges inside it, each with the file that makes it. */
export function describeCycle(graph: FolderGraph, cycle: string[]): string {
  const members = new Set(cycle);
  const lines = cycle.flatMap((from) => [...(graph.get(from) ?? [])].filter(([to]) => members.has(to)).map(([to, why]) => `  ${from} -> ${to}: ${why}`));
  return `${cycle.join(" <-> ")}\n${lines.join("\n")}`;
}

/** The production files of the repository under `root`. */
export function productionFiles(root: string): { rel: string; source: string }[] {
  const out: { rel: string; source: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!IGNORED_DIRS.has(entry.name)) walk(rel);
      } else if (isProductionFile(rel)) out.push({ rel, source: readFileSync(path.join(root, rel), "utf8") });
    }
  };
  for (const dir of PRODUCTION_ROOTS) walk(dir);
  for (const file of ["proxy.ts", "instrumentation.ts"]) out.push({ rel: file, source: readFileSync(path.join(root, file), "utf8") });
  return out;
}
