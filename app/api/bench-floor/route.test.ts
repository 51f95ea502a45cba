import { afterEach, describe, expect, it, vi } from "vitest";
import { GET } from "./route";

// The benchmark's framework floor exists only in a server started with BENCH_FLOOR=1.

describe("GET /api/bench-floor", () => {
  afterEach(() => vi.unstubAllEnvs());

  it.each([undefined, "", "0", "true"])("is a 404 that opens no connection when BENCH_FLOOR is %s", async (value) => {
    vi.stubEnv("BENCH_FLOOR", value);
    // A database URL that would fail loudly if the route tried to connect.
    vi.stubEnv("DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none");
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const res = await GET(new Request("http://127.0.0.1:3000/api/bench-floor?limit=100", { headers: { authorization: "Bearer x" } }));
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("");
    expect(fetchSpy).not.toHaveBeenCalled();
    fetchSpy.mockRestore();
  });
});
