import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SWEEP } from "@/test/cross-org/table";

// What app/ serves on the web, as the rows of table.ts name it: pages and route handlers by their
// route (`/org/[orgId]/settings/api`, without route groups), server actions as `file#export`.
// /api/v1 is the API: its operations have rows of their own (by operationId).

const root = fileURLToPath(new URL("../..", import.meta.url));
export const TABLE = "test/cross-org/table.ts";

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : walk(full);
    return [full];
  });
}

/** `app/(web)/org/[orgId]/page.tsx` -> `/org/[orgId]`. */
function routeOf(appDir: string, file: string): string {
  const segments = path
    .relative(appDir, path.dirname(file))
    .split(path.sep)
    .filter((s) => s !== "" && !/^\(.*\)$/.test(s));
  return `/${segments.join("/")}`;
}

export interface WebSurface {
  pages: string[];
  routes: string[];
  actions: string[];
}

/** The pages, route handlers (outside /api/v1) and "use server" exports under `appDir`. */
export function scanApp(appDir = path.join(root, "app")): WebSurface {
  const files = walk(appDir);
  const pages = files.filter((f) => /[/\\]page\.(tsx?|jsx?)$/.test(f)).map((f) => routeOf(appDir, f));
  const routes = files
    .filter((f) => /[/\\]route\.(ts|js)$/.test(f))
    .map((f) => routeOf(appDir, f))
    .filter((r) => r !== "/api/v1" && !r.startsWith("/api/v1/"));
  const actions = files
    .filter((f) => /\.(tsx?|jsx?)$/.test(f) && /^\s*["']use server["']/.test(readFileSync(f, "utf8")))
    .flatMap((f) => {
      const rel = path.relative(path.dirname(appDir), f).split(path.sep).join("/");
      return [...readFileSync(f, "utf8").matchAll(/^export\s+(?:async\s+)?(?:const|function|let)\s+(\w+)/gm)].map((m) => `${rel}#${m[1]}`);
    });
  return { pages, routes, actions };
}

/** What the rows cover, in the scan's terms. */
export function coveredByRows(rows = SWEEP): Set<string> {
  return new Set(
    rows.flatMap((r) => {
      if (r.kind === "page" || r.kind === "route") return [r.route];
      if (r.kind === "action") return [`${r.file}#${r.exportName}`];
      if (r.kind === "public") return [r.target];
      return [];
    }),
  );
}

/** One line per page, route or action without a row, spelling out the row to add. */
export function missingRows(surface: WebSurface, covered: Set<string>): string[] {
  return [
    ...surface.pages
      .filter((p) => !covered.has(p))
      .map(
        (p) =>
          `page ${p}: add page("${p}", "<what is tried>", { member: "not_found", guest: "not_found" }, (v, a) => \`<a URL of the victim's>\`) or open("${p}", "<why it shows nothing of an organization>") to ${TABLE}`,
      ),
    ...surface.routes
      .filter((r) => !covered.has(r))
      .map(
        (r) =>
          `route ${r}: add route("${r}", "GET", "<what is tried>", { member: "not_found", guest: "not_found" }, (v, a) => \`<a URL of the victim's>\`) or open("${r}", "<why>") to ${TABLE}`,
      ),
    ...surface.actions
      .filter((a) => !covered.has(a))
      .map((a) => {
        const [file, name] = a.split("#");
        return `action ${a}: add action("${file}", "${name}", "<what is tried>", { member: "not_found", guest: "not_found" }, (v) => \`<the page of its form>\`, (v, a) => ({ bound: [v.orgId, {}], fields: { ... } })) or open("${a}", "<why>") to ${TABLE}`;
      }),
  ];
}

/** Rows naming a page, route or action that app/ no longer has. */
export function staleRows(surface: WebSurface, covered: Set<string>): string[] {
  const existing = new Set([...surface.pages, ...surface.routes, ...surface.actions]);
  return [...covered].filter((c) => !existing.has(c));
}
