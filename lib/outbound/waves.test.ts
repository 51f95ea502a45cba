import { describe, expect, it } from "vitest";

import { inWaves } from "./waves";

/** A task whose start is recorded and whose end the test decides. */
function controlled(started: string[], name: string) {
  let settle!: { resolve: (value: string) => void; reject: (error: Error) => void };
  const task = () =>
    new Promise<string>((resolve, reject) => {
      started.push(name);
      settle = { resolve, reject };
    });
  return { task, end: () => settle };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("inWaves", () => {
  it("starts the tasks queued together at once, and the next wave only when the whole wave has settled", async () => {
    const started: string[] = [];
    const wave = inWaves(2);
    const tasks = ["a", "b", "c", "d", "e"].map((name) => controlled(started, name));
    const settled = Promise.allSettled(tasks.map((t) => wave(t.task)));
    await turn();
    expect(started).toEqual(["a", "b"]);

    tasks[0]!.end().resolve("A");
    await turn();
    // One of the wave is still out: nothing new starts.
    expect(started).toEqual(["a", "b"]);

    tasks[1]!.end().reject(new Error("B failed"));
    await turn();
    expect(started).toEqual(["a", "b", "c", "d"]);

    tasks[2]!.end().resolve("C");
    tasks[3]!.end().resolve("D");
    await turn();
    expect(started).toEqual(["a", "b", "c", "d", "e"]);
    tasks[4]!.end().resolve("E");

    expect((await settled).map((s) => (s.status === "fulfilled" ? s.value : (s.reason as Error).message))).toEqual(["A", "B failed", "C", "D", "E"]);
  });

  it("starts a new wave for tasks queued after the last one ended, and rejects with what a task throws", async () => {
    const started: string[] = [];
    const wave = inWaves(3);
    const first = controlled(started, "first");
    const done = wave(first.task);
    await turn();
    first.end().resolve("ok");
    await expect(done).resolves.toBe("ok");

    const later = [controlled(started, "x"), controlled(started, "y")];
    const results = later.map((t) => wave(t.task));
    const thrown = expect(
      wave(() => {
        throw new Error("thrown before any promise");
      }),
    ).rejects.toThrow("thrown before any promise");
    await turn();
    expect(started).toEqual(["first", "x", "y"]);
    await thrown;
    for (const t of later) t.end().resolve("later");
    await expect(Promise.all(results)).resolves.toEqual(["later", "later"]);
  });

  it("refuses a size that is not a positive integer", () => {
    expect(() => inWaves(0)).toThrow(RangeError);
    expect(() => inWaves(1.5)).toThrow(RangeError);
  });
});
