/**
 * `npm test`: every check the project has, in order, stopping at the first failure (typecheck and
 * the two halves of lint side by side, each printed when all three have ended):
 *
 *   1. generate     Prisma client (npm run db:generate)
 *   2. typecheck    tsc --noEmit
 *   3. lint         eslint (Next.js rules and the import boundaries); then prettier --check, knip
 *                   and the folder-cycle check (npm run lint's two halves, side by side)
 *   4. unit         vitest --project unit
 *   5. integration  vitest --project integration, two files at a time (a fresh database and bucket
 *                   each, see scripts/test/), then --project integration-isolated (the files that
 *                   swap a module or a global), then --project integration-load alone
 *   6. build        npm run build:app (next build, and the server compiled to dist/; npm run build
 *                   without the generate of step 1)
 *   7. e2e          playwright test (the build from step 6 on fresh services)
 *   8. durable      playwright test -c playwright.durable.config.ts: the same build with the local
 *                   Inngest executor and an SMTP sink (webhook deliveries, email, reminders)
 *   9. zapier       the Zapier app (integrations/zapier, its own package): `npm ci` there when its
 *                   node_modules is missing or older than its lock, then its vitest suite, which
 *                   drives the app against the build from step 6 (one server, fresh services)
 *  10. client       vitest --project client: the typed client (packages/client) against the build
 *                   from step 6 (its own server on CLIENT_E2E_PORT, default 3163)
 *  11. fuzz         vitest --project fuzz: property-based requests from the OpenAPI document
 *                   against the build from step 6 (fuzz/; FUZZ_SEED repeats a run, FUZZ_PORT,
 *                   default 3161, is the server's port, FUZZ_RUNS the runs per operation), and
 *                   the build's graceful shutdown (its own server on FUZZ_SHUTDOWN_PORT, 3162),
 *                   and the web half of the cross-organization sweep (test/cross-org/)
 *
 * Not here: `npm run test:faults` (faults/, run by .ci/run after npm test), which stops and starts
 * a PostgreSQL, S3 and job engine of its own under the same build.
 *
 * `npm test -- unit`, `-- int`, `-- e2e`, `-- durable`, `-- zapier`, `-- client`, `-- fuzz` (several
 * may be given) run just those tiers, with the steps they need first (generate; and build for e2e,
 * durable, zapier, client and fuzz). The last line is always
 * `N passed, N failed`: the tests of all tiers that ran, counted from the runners' JSON reports.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const reports = path.join(root, "test-results");
const bin = (relative: string): string => path.join(root, "node_modules", relative);
const zapierApp = path.join(root, "integrations", "zapier");

interface Counts {
  passed: number;
  failed: number;
}

interface Step {
  id: string;
  title: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Working directory (default: the repository root). */
  cwd?: string;
  /** When it returns a reason, the step is skipped and the reason printed. */
  skip?: () => string | undefined;
  /** For test tiers: reads the runner's report after the run (exit code: whether it failed). */
  count?: (exitCode: number) => Counts;
  /**
   * Steps next to each other with the same `together` run side by side (each single-threaded, on a
   * machine with two cores or more), their output shown one after the other when all have ended.
   */
  together?: string;
}

const vitestReport = (project: string): string => path.join(reports, `vitest-${project}.json`);
const playwrightReport = (id: string): string => path.join(reports, id === "e2e" ? "playwright.json" : `playwright-${id}.json`);

/** Whether integrations/zapier has an install at least as new as its lock (npm ci writes the hidden lock last). */
function zapierInstallCurrent(): string | undefined {
  try {
    const installed = statSync(path.join(zapierApp, "node_modules", ".package-lock.json")).mtimeMs;
    return installed >= statSync(path.join(zapierApp, "package-lock.json")).mtimeMs ? "integrations/zapier/node_modules is current" : undefined;
  } catch {
    return undefined;
  }
}

/** A vitest run of `project` (and `alsoProjects`, in the same run and report). */
function vitest(id: string, title: string, project: string, alsoProjects: string[] = []): Step {
  return {
    id,
    title,
    command: process.execPath,
    args: [
      bin("vitest/vitest.mjs"),
      "run",
      ...[project, ...alsoProjects].flatMap((name) => ["--project", name]),
      // A tier with no test files yet passes; the count shows 0.
      "--passWithNoTests",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${vitestReport(project)}`,
    ],
    count: (exitCode) => countVitest(vitestReport(project), exitCode),
  };
}

const STEPS: Step[] = [
  { id: "generate", title: "Prisma client (npm run db:generate)", command: "npm", args: ["run", "--silent", "db:generate"] },
  { id: "typecheck", title: "Typecheck (tsc --noEmit)", command: process.execPath, args: [bin("typescript/bin/tsc"), "--noEmit"], together: "static" },
  // npm run lint in two halves, side by side with the typecheck: one after the other they left the
  // two cores a quarter idle.
  { id: "lint-code", title: "Lint, code (npm run lint:code: eslint)", command: "npm", args: ["run", "--silent", "lint:code"], together: "static" },
  {
    id: "lint-files",
    title: "Lint, files (npm run lint:files: prettier --check, knip, folder cycles)",
    command: "npm",
    args: ["run", "--silent", "lint:files"],
    together: "static",
  },
  vitest("unit", "Unit tests (vitest --project unit)", "unit"),
  vitest("integration", "Integration tests (vitest --project integration --project integration-isolated --project integration-load)", "integration", [
    "integration-isolated",
    "integration-load",
  ]),
  {
    id: "build",
    // npm run build without its db:generate: every tier that builds generates first.
    title: "Production build (npm run build:app: next build and the compiled server)",
    command: "npm",
    args: ["run", "--silent", "build:app"],
    env: { NEXT_TELEMETRY_DISABLED: "1" },
  },
  {
    id: "e2e",
    title: "End-to-end tests (playwright test)",
    command: process.execPath,
    args: [bin("@playwright/test/cli.js"), "test"],
    // Two workers, each with a server of its own (playwright.config.ts): one worker kept the two
    // cores 61% busy, waiting on the browser, timers and the network (docs/development.md).
    env: { E2E_WORKERS: "2" },
    // playwright.config.ts writes this next to its list output.
    count: (exitCode) => countPlaywright(playwrightReport("e2e"), exitCode),
  },
  {
    id: "durable",
    title: "Durable end-to-end tests (playwright test -c playwright.durable.config.ts)",
    command: process.execPath,
    args: [bin("@playwright/test/cli.js"), "test", "-c", "playwright.durable.config.ts"],
    count: (exitCode) => countPlaywright(playwrightReport("durable"), exitCode),
  },
  {
    id: "zapier-deps",
    title: "Zapier app dependencies (npm ci in integrations/zapier)",
    command: "npm",
    args: ["ci", "--no-audit", "--no-fund"],
    cwd: zapierApp,
    skip: zapierInstallCurrent,
  },
  {
    id: "zapier",
    title: "Zapier app tests (integrations/zapier, vitest against the production build)",
    command: process.execPath,
    args: [
      path.join(zapierApp, "node_modules/vitest/vitest.mjs"),
      "run",
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${vitestReport("zapier")}`,
    ],
    cwd: zapierApp,
    env: { NEXT_TELEMETRY_DISABLED: "1" },
    count: (exitCode) => countVitest(vitestReport("zapier"), exitCode),
  },
  { ...vitest("client", "Typed client tests (vitest --project client, against the production build)", "client"), env: { NEXT_TELEMETRY_DISABLED: "1" } },
  { ...vitest("fuzz", "Fuzz tests (vitest --project fuzz, against the production build)", "fuzz"), env: { NEXT_TELEMETRY_DISABLED: "1" } },
];

// Tier names on the command line, and the steps each needs.
const TIERS: Record<string, string[]> = {
  unit: ["generate", "unit"],
  int: ["generate", "integration"],
  integration: ["generate", "integration"],
  e2e: ["generate", "build", "e2e"],
  durable: ["generate", "build", "durable"],
  zapier: ["generate", "build", "zapier-deps", "zapier"],
  client: ["generate", "build", "client"],
  fuzz: ["generate", "build", "fuzz"],
  typecheck: ["generate", "typecheck"],
  lint: ["generate", "lint-code", "lint-files"],
  build: ["generate", "build"],
};

function selectSteps(args: string[]): Step[] {
  if (args.length === 0) return STEPS;
  const wanted = new Set<string>();
  for (const arg of args) {
    const ids = TIERS[arg];
    if (!ids) {
      process.stderr.write(`Unknown tier "${arg}". Use: ${Object.keys(TIERS).join(", ")} (or nothing for all).\n`);
      process.exit(2);
    }
    ids.forEach((id) => wanted.add(id));
  }
  return STEPS.filter((s) => wanted.has(s.id));
}

// --- the runners' reports --------------------------------------------------------------------

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{ status: string; message?: string; assertionResults: Array<{ status: string }> }>;
}

function countVitest(file: string, exitCode: number): Counts {
  const report = readJson<VitestReport>(file);
  if (!report) return { passed: 0, failed: exitCode === 0 ? 0 : 1 };
  // A file that fails outside any test (import error, failing hook) has no failed test to count:
  // it counts as one failure itself.
  const brokenFiles = report.testResults.filter((f) => f.status === "failed" && !f.assertionResults.some((a) => a.status === "failed")).length;
  const failed = report.numFailedTests + brokenFiles;
  // Vitest can fail with every test passing (e.g. an unhandled error); don't report that as clean.
  return { passed: report.numPassedTests, failed: exitCode !== 0 && failed === 0 ? 1 : failed };
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  errors: unknown[];
}

function countPlaywright(file: string, exitCode: number): Counts {
  const report = readJson<PlaywrightReport>(file);
  if (!report) return { passed: 0, failed: exitCode === 0 ? 0 : 1 };
  // Flaky: failed first, passed on the CI retry. It passed, and Playwright's list says "flaky".
  const passed = report.stats.expected + report.stats.flaky;
  const failed = report.stats.unexpected;
  // Errors outside tests (the web server not starting, a broken spec file) fail the run too.
  return { passed, failed: exitCode !== 0 && failed === 0 ? Math.max(1, report.errors.length) : failed };
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

// --- running ---------------------------------------------------------------------------------

/**
 * Runs `step` to its end: its exit code, and the time it took. With `output`, what it prints is
 * collected there (stdout and stderr interleaved as printed) instead of going to the terminal.
 */
function run(step: Step, output?: Buffer[]): Promise<{ exitCode: number; seconds: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const done = (exitCode: number) => resolve({ exitCode, seconds: (Date.now() - started) / 1000 });
    const child = spawn(step.command, step.args, {
      cwd: step.cwd ?? root,
      stdio: output ? ["ignore", "pipe", "pipe"] : "inherit",
      env: { ...process.env, ...(output ? { FORCE_COLOR: process.stdout.isTTY ? "1" : "0" } : {}), ...step.env },
    });
    child.stdout?.on("data", (chunk: Buffer) => output?.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => output?.push(chunk));
    child.on("error", (error) => {
      output?.push(Buffer.from(`could not start ${step.command}: ${error.message}\n`));
      if (!output) process.stderr.write(`could not start ${step.command}: ${error.message}\n`);
      done(127);
    });
    child.on("close", (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

function header(text: string): void {
  const line = "=".repeat(Math.max(60, text.length + 8));
  process.stdout.write(`\n${line}\n=== ${text}\n${line}\n`);
}

async function main(): Promise<void> {
  const steps = selectSteps(process.argv.slice(2));
  // The typecheck step runs before the build and a failure stops the run: the build need not
  // check the same types again (next.config.ts reads this).
  const build = steps.find((s) => s.id === "build");
  if (build && steps.some((s) => s.id === "typecheck")) build.env = { ...build.env, BUILD_TYPECHECKED: "1" };
  mkdirSync(reports, { recursive: true });
  const totals: Counts = { passed: 0, failed: 0 };
  const summary: string[] = [];
  let failedStep: Step | undefined;

  for (let index = 0; index < steps.length;) {
    // The step, and the steps after it that run together with it.
    const batch = [steps[index]!];
    while (batch[0]!.together && steps[index + batch.length]?.together === batch[0]!.together) batch.push(steps[index + batch.length]!);
    const first = index;
    index += batch.length;

    const runs = batch.map((step) => {
      const skipped = step.skip?.();
      if (skipped) return { skipped };
      if (step.count) {
        // A report left over from an earlier run must not be counted for this one.
        rmSync(step.id === "e2e" || step.id === "durable" ? playwrightReport(step.id) : vitestReport(step.id), { force: true });
      }
      if (batch.length === 1) {
        header(`[${first + 1}/${steps.length}] ${step.title}`);
        return { output: undefined, result: run(step) };
      }
      const output: Buffer[] = [];
      return { output, result: run(step, output) };
    });
    if (batch.length > 1) process.stdout.write(`\nRunning side by side: ${batch.map((s) => s.id).join(", ")}\n`);

    let failed = false;
    for (const [i, step] of batch.entries()) {
      const started = runs[i]!;
      if (batch.length > 1 || "skipped" in started) header(`[${first + i + 1}/${steps.length}] ${step.title}`);
      if ("skipped" in started) {
        process.stdout.write(`skipped: ${started.skipped}\n`);
        summary.push(`${step.id.padEnd(12)} skip`);
        continue;
      }
      const { exitCode, seconds } = await started.result;
      if (started.output) process.stdout.write(Buffer.concat(started.output));
      let line = `${step.id.padEnd(12)} ${exitCode === 0 ? "ok  " : "FAIL"} ${seconds.toFixed(1).padStart(6)}s`;
      if (step.count) {
        const counts = step.count(exitCode);
        totals.passed += counts.passed;
        totals.failed += counts.failed;
        line += `   ${counts.passed} passed, ${counts.failed} failed`;
      }
      summary.push(line);
      if (exitCode !== 0 && !failedStep) failedStep = step;
      failed ||= exitCode !== 0;
    }
    if (failed) break;
  }

  header("Summary");
  process.stdout.write(`${summary.join("\n")}\n`);
  if (failedStep) {
    const skipped = steps.slice(summary.length).map((s) => s.id);
    process.stdout.write(`\n${failedStep.id} failed${skipped.length ? `; not run: ${skipped.join(", ")}` : ""}\n`);
  }
  process.stdout.write(`\n${totals.passed} passed, ${totals.failed} failed\n`);
  // A step that fails without a failed test (typecheck, build) still fails the run.
  process.exit(failedStep || totals.failed > 0 ? 1 : 0);
}

void main();
