import { describe, expect, it } from "vitest";

import { pageExtensions } from "./next.config";

// The benchmark's framework-floor route (app/api/bench-floor/route.bench.ts) is in no build but the benchmark's.
describe("next.config pageExtensions", () => {
  it("leaves *.bench.ts out of a production build", () => {
    expect(pageExtensions({})).not.toContain("bench.ts");
    expect(pageExtensions({ BENCH_BUILD: "0" })).not.toContain("bench.ts");
  });

  it("compiles *.bench.ts in a benchmark build", () => {
    expect(pageExtensions({ BENCH_BUILD: "1" })).toContain("bench.ts");
  });
});
