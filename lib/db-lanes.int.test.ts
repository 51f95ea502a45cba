import { describe, expect, it } from "vitest";
import { BACKGROUND_POOL_SIZE, query, runInBackground } from "@/lib/db";

// The two lanes against the real PostgreSQL of the integration tier: background work draws on a
// pool of its own, so however much of it waits, a request's statement goes to other connections.

const backendPid = async () => (await query<{ pid: number }>("SELECT pg_backend_pid() AS pid, pg_sleep(0.05)"))[0]!.pid;

describe("connection lanes", () => {
  it("background work uses at most its pool's connections, none of which a request's statement uses", async () => {
    const background = Array.from({ length: BACKGROUND_POOL_SIZE * 4 }, () => runInBackground(backendPid));
    const requests = Array.from({ length: 6 }, () => backendPid());
    const [inBackground, inRequests] = await Promise.all([Promise.all(background), Promise.all(requests)]);
    const backgroundPids = new Set(inBackground);
    expect(backgroundPids.size).toBe(BACKGROUND_POOL_SIZE);
    expect(inRequests.filter((pid) => backgroundPids.has(pid))).toEqual([]);
  });

  it("the lane follows the work through awaits and timers", async () => {
    const pids = await runInBackground(async () => {
      const first = await backendPid();
      await new Promise((r) => setTimeout(r, 5));
      return [first, await backendPid()];
    });
    const background = new Set(await Promise.all(Array.from({ length: BACKGROUND_POOL_SIZE * 2 }, () => runInBackground(backendPid))));
    expect(pids.every((pid) => background.has(pid))).toBe(true);
  });
});
