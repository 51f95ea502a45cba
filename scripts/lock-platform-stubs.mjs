#!/usr/bin/env node
/**
 * Keeps `npm ci` working with package-lock.json on this network.
 *
 * The registry reachable here does not serve every platform's optional native binary
 * (@next/swc-darwin-arm64, @unrs/resolver-binding-win32-x64-msvc, ...). `npm install` then leaves
 * those packages out of the lock, and `npm ci` refuses a lock that misses an optional dependency
 * some package declares. This script adds, for every such missing optional dependency, the entry
 * npm would have written minus the download address: its version, `optional: true` and the
 * `os`/`cpu` that make npm skip it on this machine. The os/cpu come from the registry when it
 * answers, else from the package name (`<name>-<os>-<cpu>[-<libc>]`).
 *
 * Usage, in the project folder after `npm install --package-lock-only ...`:
 *   node scripts/lock-platform-stubs.mjs
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const file = new URL("package-lock.json", `file://${process.cwd()}/`);
const lock = JSON.parse(readFileSync(file, "utf8"));
const packages = lock.packages;

const OS = ["darwin", "linux", "win32", "freebsd", "android", "openharmony", "openbsd", "netbsd", "sunos", "aix"];
const CPU = ["arm64", "x64", "ia32", "arm", "riscv64", "ppc64", "s390x", "loong64", "wasm32"];

function fromName(name) {
  const parts = name.split("/").pop().split("-");
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  return { os: os ? [os] : undefined, cpu: cpu ? [cpu] : undefined };
}

function fromRegistry(name, range) {
  try {
    const out = execFileSync("npm", ["view", `${name}@${range}`, "version", "os", "cpu", "--json"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 30_000,
    });
    const data = JSON.parse(out);
    const last = Array.isArray(data) ? data[data.length - 1] : data;
    return last && last.version ? last : null;
  } catch {
    return null;
  }
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = path === "" ? "node_modules" : `${path}/node_modules`;
    // npm resolves from the nearest node_modules upwards; the hoisted place is the usual one.
    if (packages[`${base}/${name}`] || packages[`node_modules/${name}`]) continue;
    const exact = /^\d+\.\d+\.\d+/.test(range) ? range.replace(/^[^\d]*/, "") : null;
    const meta = fromRegistry(name, range);
    const guess = fromName(name);
    const stub = { version: meta?.version ?? exact ?? range.replace(/^[^\d]*/, ""), optional: true };
    const os = meta?.os ?? guess.os;
    const cpu = meta?.cpu ?? guess.cpu;
    if (os) stub.os = Array.isArray(os) ? os : [os];
    if (cpu) stub.cpu = Array.isArray(cpu) ? cpu : [cpu];
    packages[`node_modules/${name}`] = stub;
    added += 1;
    console.log(`stub ${name}@${stub.version} os=${stub.os ?? "-"} cpu=${stub.cpu ?? "-"}`);
  }
}

// npm keeps packages sorted by path; keep the file stable for diffs.
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(file, JSON.stringify(lock, null, 2) + "\n");
console.log(`${added} optional platform package(s) stubbed`);
