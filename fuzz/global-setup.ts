/**
 * Global setup of the fuzz tier: the production build (the application server) on fresh services, through
 * scripts/e2e-server.ts like the e2e tier, on FUZZ_PORT (default 3161). Its environment (the
 * database the tests count rows in, the keys tokens are signed with) and the run's seed reach the
 * test workers through provide/inject (see env.ts).
 */
import type { TestProject } from "vitest/node";
import { startE2eServer } from "../scripts/test/e2e-server-process.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const seed = process.env["FUZZ_SEED"] ? Number(process.env["FUZZ_SEED"]) : Math.floor(Math.random() * 2 ** 31);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, not ${process.env["FUZZ_SEED"]}`);
  process.stdout.write(`[fuzz] seed ${seed} (repeat this run with FUZZ_SEED=${seed})\n`);

  const server = await startE2eServer({ port: Number(process.env["FUZZ_PORT"] ?? 3161), label: "fuzz" });
  project.provide("fuzz", { env: server.env, seed, baseUrl: server.baseUrl });
  return server.stop;
}
