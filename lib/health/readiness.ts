import { HeadBucketCommand } from "@aws-sdk/client-s3";
import { rows, sql } from "@/lib/sql";
import { env } from "@/lib/env";
import { bucket, s3 } from "@/lib/storage/s3";

// GET /readyz: whether this process can serve, i.e. reach what every request may need. Each check
// has a short time limit of its own, so a dependency that hangs fails readiness instead of hanging
// the orchestrator's probe.

type Dependency = "database" | "storage" | "jobs";

interface CheckResult {
  ok: boolean;
  ms: number;
  /** Why it failed (no secrets: messages of the clients, never connection strings). */
  error?: string;
}

export interface Readiness {
  ready: boolean;
  checks: Record<Dependency, CheckResult>;
}

const checks = (jobsUrl: string): Record<Dependency, (signal: AbortSignal) => Promise<unknown>> => ({
  database: () => rows(sql.selectNoFrom((eb) => eb.lit(1).as("ok"))),
  storage: (signal) => s3().send(new HeadBucketCommand({ Bucket: bucket() }), { abortSignal: signal }),
  // Any HTTP answer means the engine is there; only no answer (refused, timed out) fails.
  jobs: (signal) => fetch(jobsUrl, { signal, redirect: "manual" }).then((r) => r.body?.cancel()),
});

async function run(check: (signal: AbortSignal) => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  const started = Date.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    await Promise.race([check(controller.signal), timeout]);
    return { ok: true, ms: Date.now() - started };
  } catch (error) {
    return { ok: false, ms: Date.now() - started, error: describe(error) };
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const name = error.name && error.name !== "Error" ? `${error.name}: ` : "";
  return `${name}${error.message}`.split("\n")[0]!.slice(0, 200);
}

/**
 * `jobsUrl`: where the job engine takes events (the Dev Server, or Inngest Cloud's event API); the
 * caller knows the engine's configuration (lib/ does not import it).
 */
export async function checkReadiness({ jobsUrl, timeoutMs = env().READINESS_TIMEOUT_MS }: { jobsUrl: string; timeoutMs?: number }): Promise<Readiness> {
  const all = checks(jobsUrl);
  const entries = await Promise.all((Object.keys(all) as Dependency[]).map(async (name) => [name, await run(all[name], timeoutMs)] as const));
  return { ready: entries.every(([, r]) => r.ok), checks: Object.fromEntries(entries) as Record<Dependency, CheckResult> };
}
