// Where the CPU goes, by area: each sample is charged to the nearest frame (from the leaf up) that
// belongs to a package or to the app's own code; node internals and native frames (socket writes,
// crypto, streams) are charged to whoever called them. Frames in .next chunks are resolved through
// the build's source maps (node:module SourceMap). GC, idle and "(program)" stay apart.
// Usage: node cpuprofile-areas.mjs FILE [WINDOW=15] [SKIP_END=1]
import { readFileSync, existsSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";
const [file, win = 15, skipEnd = 1] = process.argv.slice(2);
const p = JSON.parse(readFileSync(file, "utf8"));
const nodes = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
let t = p.startTime;
const times = p.timeDeltas.map((d) => (t += d));
const hi = p.endTime - skipEnd * 1e6,
  lo = hi - win * 1e6;
const maps = new Map();
function mapFor(url) {
  if (!maps.has(url)) {
    let m = null;
    try {
      const f = url.startsWith("file:") ? fileURLToPath(url) : url;
      if (existsSync(f + ".map")) m = new SourceMap(JSON.parse(readFileSync(f + ".map", "utf8")));
    } catch {}
    maps.set(url, m);
  }
  return maps.get(url);
}
function owner(cf) {
  const u = cf.url || "";
  if (!u || u.startsWith("node:")) return null;
  if (/\/\.next\//.test(u)) {
    const m = mapFor(u);
    const e = m?.findEntry(cf.lineNumber, cf.columnNumber);
    const src = e?.originalSource ?? "";
    const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(decodeURIComponent(src))?.[1];
    if (pkg) return "npm:" + pkg;
    if (src) return "app:" + src.replace(/^.*\[project\]\//, "").replace(/^(\.\.\/)+/, "");
    return "app:(unmapped .next chunk)";
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)(\/dist\/compiled\/([^/]+))?/.exec(u);
  if (pkg) return "npm:" + pkg[1] + (pkg[3] ? "/compiled/" + pkg[3] : "");
  return "other:" + u;
}
const AREAS = [
  [/^(GC|idle|program)$/, (k) => k],
  [/^npm:@prisma\//, () => "Prisma client runtime (query compile/interpret, result mapping)"],
  [/^npm:(pg|pg-protocol|pg-pool|pg-types|postgres-array|postgres-date|postgres-bytea|postgres-interval)$/, () => "pg driver + socket I/O to PostgreSQL"],
  [/^npm:zod$/, () => "zod (request parse + response validation)"],
  [/^npm:jose$|^app:lib\/oauth\//, () => "JWT / OAuth code (jose, webcrypto, lib/oauth)"],
  [/^npm:next\/compiled\/compression/, () => "HTTP response compression (gzip)"],
  [/^npm:(next|@opentelemetry\/api|react|react-dom)/, () => "Next.js server (routing, web Request/Response, streams)"],
  [/^app:lib\/api\//, () => "API wrapper (lib/api)"],
  [/^app:/, () => "app domain code (lib/*, app/*)"],
];
const area = new Map(),
  detail = new Map();
let total = 0;
for (let i = 0; i < p.samples.length; i++) {
  if (times[i] < lo || times[i] > hi) continue;
  const dt = p.timeDeltas[i + 1] ?? 0;
  total += dt;
  let key = null;
  const leaf = nodes.get(p.samples[i]).callFrame.functionName;
  if (leaf === "(garbage collector)") key = "GC";
  else if (leaf === "(idle)") key = "idle";
  else if (leaf === "(program)") key = "program";
  else for (let id = p.samples[i]; id !== undefined && !key; id = parent.get(id)) key = owner(nodes.get(id).callFrame);
  key ??= "node internals with no JS owner (timers, microtask queue...)";
  detail.set(key, (detail.get(key) ?? 0) + dt);
  const a = AREAS.find(([re]) => re.test(key));
  const name = a ? a[1](key) : key;
  area.set(name, (area.get(name) ?? 0) + dt);
}
const pct = (v) => ((100 * v) / total).toFixed(1).padStart(5) + "%";
console.log(`window ${win}s, ${(total / 1e6).toFixed(2)}s sampled`);
for (const [k, v] of [...area].sort((a, b) => b[1] - a[1])) console.log(pct(v), k);
console.log("--- by owner");
for (const [k, v] of [...detail].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(pct(v), k);
