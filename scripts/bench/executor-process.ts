/**
 * The local Inngest executor in a process of its own, for the benchmarks that report the job
 * engine's CPU apart from the server's and the load generator's: dev mode, waits scaled as the
 * end-to-end server's (DEFAULT_TIME_SCALE). Prints `ready <url>` once listening; syncs the app at
 * SERVE_URL once it answers; SIGTERM closes it.
 *
 *   SERVE_URL=http://127.0.0.1:3700/api/inngest node --import tsx scripts/bench/executor-process.ts
 */
import { DEFAULT_TIME_SCALE } from "../test/durable-services.ts";
import { InngestExecutor } from "../test/inngest-executor.ts";

const executor = new InngestExecutor({ timeScale: DEFAULT_TIME_SCALE, log: () => {} });
const url = await executor.listen(Number(process.env["EXECUTOR_PORT"] ?? 0));
console.log(`ready ${url}`);
const serveUrl = process.env["SERVE_URL"];
if (serveUrl) void executor.syncWhenUp(serveUrl, 120_000).catch((e: unknown) => console.error(`sync failed: ${String(e)}`));
process.once("SIGTERM", () => {
  void executor.close().then(() => process.exit(0));
});
