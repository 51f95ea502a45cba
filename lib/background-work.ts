import pLimit from "p-limit";
import { runInBackground } from "@/lib/db";

/**
 * Job function calls (the serve endpoint, app/api/inngest) run at most this many at a time per
 * process; the engine's further calls wait their turn, their work not started. With the
 * background lane's pool (lib/db.ts) this bounds what background work takes from the process:
 * requests keep their share of the CPU and the connections of their own lane however large the
 * engine's backlog (docs/jobs.md, "The path of an event, and backpressure").
 */
const JOB_CALL_CONCURRENCY = 4;
const calls = pLimit(JOB_CALL_CONCURRENCY);

/** Runs one call of a job function: in the background lane, when one of the slots is free. */
export function runJobCall<T>(call: () => Promise<T>): Promise<T> {
  return calls(() => runInBackground(call));
}
