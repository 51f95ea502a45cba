import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Inngest, NonRetriableError } from "inngest";
import { serve } from "inngest/node";
import { afterEach, describe, expect, it } from "vitest";

import {
  canonicalJson,
  cronMatches,
  durationMs,
  evaluate,
  hashedSigningKey,
  type ExecutorOptions,
  type InngestExecutor,
  signRequest,
  startInngestExecutor,
} from "./inngest-executor";

// The executor against the real SDK: a serve() endpoint on loopback, the client pointed at the
// executor in cloud mode (signed requests both ways), every step kind the app uses.

const SIGNING_KEY = "signkey-test-8ee2262a15e8d3c42d6a840db7af3de2aab08ef632b32a37a687f24b34dba3ff";
const EVENT_KEY = "test-event-key";

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function setup(checkpointing: boolean, { signs = true, limits = {} as Pick<ExecutorOptions, "maxConcurrentCalls" | "retain"> } = {}) {
  const executor = await startInngestExecutor({
    signingKey: signs ? SIGNING_KEY : undefined,
    eventKey: EVENT_KEY,
    timeScale: 0.0001,
    checkpointing,
    ...limits,
  });
  stops.push(() => executor.close());
  const client = new Inngest({ id: "exec-test", baseUrl: executor.url, eventKey: EVENT_KEY, signingKey: SIGNING_KEY, isDev: false });
  const seen: Record<string, number> = {};
  const inFlight = { now: 0, max: 0 };
  const slowCalls = { now: 0, max: 0 };
  const functions = [
    client.createFunction({ id: "steps", triggers: [{ event: "test/steps" }] }, async ({ event, step }) => {
      const a = await step.run("a", () => ({ got: (event.data as { n: number }).n }));
      await step.sleep("nap", "1h");
      await step.sendEvent("fan", { name: "test/sent", data: { from: a.got } });
      const b = await step.run("b", () => a.got + 1);
      return { b };
    }),
    client.createFunction({ id: "flaky", retries: 3, triggers: [{ event: "test/flaky" }] }, async ({ step }) =>
      step.run("sometimes", () => {
        seen.flaky = (seen.flaky ?? 0) + 1;
        if (seen.flaky < 3) throw new Error(`failure ${seen.flaky}`);
        return "ok";
      }),
    ),
    client.createFunction({ id: "broken", retries: 1, triggers: [{ event: "test/broken" }] }, async ({ step }) => {
      await step.run("fails", () => {
        throw new Error("always");
      });
    }),
    client.createFunction({ id: "refuses", triggers: [{ event: "test/refuses" }] }, async () => {
      throw new NonRetriableError("no point");
    }),
    client.createFunction(
      {
        id: "sleeper",
        triggers: [{ event: "test/sleep" }],
        cancelOn: [{ event: "test/cancel", if: "async.data.id == event.data.id" }],
      },
      async ({ step }) => {
        await step.sleep("long", "2h");
        return "woke";
      },
    ),
    client.createFunction({ id: "waiter", triggers: [{ event: "test/wait" }] }, async ({ step }) => {
      const got = await step.waitForEvent("go", { event: "test/go", timeout: "1h", if: "async.data.id == event.data.id" });
      return got ? got.data : null;
    }),
    client.createFunction({ id: "patient-waiter", triggers: [{ event: "test/wait-long" }] }, async ({ step }) => {
      const got = await step.waitForEvent("go", { event: "test/go", timeout: "10h", if: "async.data.id == event.data.id" });
      return got ? got.data : null;
    }),
    client.createFunction({ id: "nightly", triggers: [{ cron: "17 3 * * *" }] }, async ({ step }) => step.run("sweep", () => "swept")),
    client.createFunction({ id: "one-at-a-time", concurrency: { key: "event.data.k", limit: 1 }, triggers: [{ event: "test/conc" }] }, async ({ step }) =>
      step.run("work", async () => {
        inFlight.now += 1;
        inFlight.max = Math.max(inFlight.max, inFlight.now);
        await new Promise((r) => setTimeout(r, 50));
        inFlight.now -= 1;
      }),
    ),
    client.createFunction(
      { id: "batched", batchEvents: { maxSize: 3, timeout: "1s", key: "event.data.k" }, triggers: [{ event: "test/batch" }] },
      async ({ events, step }) => step.run("sum", () => events.map((e) => (e.data as { n: number }).n)),
    ),
    client.createFunction({ id: "slow", triggers: [{ event: "test/slow" }] }, async () => {
      slowCalls.now += 1;
      slowCalls.max = Math.max(slowCalls.max, slowCalls.now);
      await new Promise((r) => setTimeout(r, 20));
      slowCalls.now -= 1;
      return "done";
    }),
  ];
  const server: Server = createServer(serve({ client, functions }));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  stops.push(() => new Promise<void>((r) => server.close(() => r())));
  const serveUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inngest`;
  return { executor, client, serveUrl, inFlight, slowCalls, seen };
}

const runOf = (executor: InngestExecutor, fn: string, done = true) =>
  executor.waitFor(() => executor.state().runs.find((r) => r.functionId === `exec-test-${fn}` && (!done || !["Running", "Queued"].includes(r.status))), 10_000);

describe.each([true, false])("the executor with the SDK (checkpointing %s)", (checkpointing) => {
  it("syncs, runs steps, sleeps (time-scaled), sends events and completes", async () => {
    const { executor, client, serveUrl } = await setup(checkpointing);
    await executor.sync(serveUrl);
    expect(executor.state().functions).toContain("exec-test-steps");
    const { ids } = await client.send({ name: "test/steps", data: { n: 41 } });
    const run = await runOf(executor, "steps");
    expect(run).toMatchObject({ status: "Completed", output: { b: 42 } });
    expect(run.event.id).toBe(ids[0]);
    expect(run.steps.map((s) => [s.name, s.op])).toEqual([
      ["a", "StepRun"],
      ["nap", "Sleep"],
      ["fan", "StepRun"],
      ["b", "StepRun"],
    ]);
    expect(new Set(run.steps.filter((s) => s.op === "StepRun").map((s) => s.via))).toEqual(new Set([checkpointing ? "checkpoint" : "response"]));
    expect(executor.state().events.find((e) => e.name === "test/sent")?.data).toEqual({ from: 41 });
  });

  it("retries a failing step with the attempt number and then memoizes its result", async () => {
    const { executor, client, serveUrl, seen } = await setup(checkpointing);
    await executor.sync(serveUrl);
    await client.send({ name: "test/flaky", data: {} });
    const run = await runOf(executor, "flaky");
    expect(run.status).toBe("Completed");
    expect(seen.flaky).toBe(3);
    expect(run.steps.map((s) => [s.op, s.attempt])).toEqual([
      ["StepError", 0],
      ["StepError", 1],
      ["StepRun", 2],
    ]);
  });

  it("fails a run after its retries, emitting inngest/function.failed; a NonRetriableError fails at once", async () => {
    const { executor, client, serveUrl } = await setup(checkpointing);
    await executor.sync(serveUrl);
    await client.send([
      { name: "test/broken", data: {} },
      { name: "test/refuses", data: {} },
    ]);
    const broken = await runOf(executor, "broken");
    expect(broken.status).toBe("Failed");
    expect(broken.steps.map((s) => s.op)).toEqual(["StepError", "StepFailed"]);
    const refuses = await runOf(executor, "refuses");
    expect(refuses.status).toBe("Failed");
    expect(refuses.calls).toHaveLength(1);
    const failed = executor.state().events.filter((e) => e.name === "inngest/function.failed");
    expect(failed.map((e) => (e.data as { function_id: string }).function_id).sort()).toEqual(["exec-test-broken", "exec-test-refuses"]);
  });
});

describe("the executor's waits", () => {
  it("cancels a sleeping run on a matching cancelOn event only", async () => {
    const { executor, client, serveUrl } = await setup(true);
    await executor.sync(serveUrl);
    await client.send([
      { name: "test/sleep", data: { id: "a" } },
      { name: "test/sleep", data: { id: "b" } },
    ]);
    await executor.waitFor(() => (executor.state().runs.filter((r) => r.steps.length === 0 && r.wakesAt !== undefined).length === 2 ? true : undefined));
    expect(executor.state().idle, "runs asleep are not idle").toBe(false);
    // 2 h on the run's clock, 0.72 s in real time here.
    const wakes = executor.state().runs.map((r) => Date.parse(r.wakesAt ?? "") - Date.now());
    for (const ms of wakes) expect(ms).toBeGreaterThan(300);
    for (const ms of wakes) expect(ms).toBeLessThanOrEqual(720);
    await client.send({ name: "test/cancel", data: { id: "a" } });
    const runs = await executor.waitFor(() => {
      const rs = executor.state().runs.filter((r) => r.functionId === "exec-test-sleeper");
      return rs.every((r) => r.status !== "Running") ? rs : undefined;
    });
    expect(runs.map((r) => [(r.event.data as { id: string }).id, r.status])).toEqual([
      ["a", "Cancelled"],
      ["b", "Completed"],
    ]);
    expect(executor.state().idle).toBe(true);
  });

  it("resumes waitForEvent with the matching event", async () => {
    const { executor, client, serveUrl } = await setup(true);
    await executor.sync(serveUrl);
    await client.send({ name: "test/wait", data: { id: "x" } });
    await runOf(executor, "waiter", false);
    await executor.waitFor(() => (executor.state().runs[0]?.calls.length ? true : undefined));
    await client.send([
      { name: "test/go", data: { id: "other" } },
      { name: "test/go", data: { id: "x", v: 7 } },
    ]);
    expect(await runOf(executor, "waiter")).toMatchObject({ status: "Completed", output: { id: "x", v: 7 } });
    expect(executor.state().runs[0]?.wakesAt, "the match ended the wait").toBeUndefined();
  });

  it("a matched wait's timeout ends with it: another run's wait still gets its event afterwards", async () => {
    const { executor, client, serveUrl } = await setup(true);
    await executor.sync(serveUrl);
    // The waiter times out after 0.36 s real time, the patient one after 3.6 s.
    await client.send([
      { name: "test/wait", data: { id: "x" } },
      { name: "test/wait-long", data: { id: "y" } },
    ]);
    await executor.waitFor(() => (executor.state().runs.every((r) => r.wakesAt !== undefined) && executor.state().runs.length === 2 ? true : undefined));
    await client.send({ name: "test/go", data: { id: "x" } });
    expect(await runOf(executor, "waiter")).toMatchObject({ status: "Completed", output: { id: "x" } });
    // Past the moment the first wait's timeout would have ended.
    await new Promise((r) => setTimeout(r, 600));
    await client.send({ name: "test/go", data: { id: "y", v: 1 } });
    expect(await runOf(executor, "patient-waiter")).toMatchObject({ status: "Completed", output: { id: "y", v: 1 } });
  });

  it("gathers batches per key: a full batch at once, the rest after the timeout; a repeated event id joins none", async () => {
    const { executor, client, serveUrl } = await setup(true);
    await executor.sync(serveUrl);
    const sent = Date.now();
    await client.send([1, 2, 3, 4].map((n) => ({ id: `batch-${n}`, name: "test/batch", data: { k: "a", n } })));
    await client.send([
      { name: "test/batch", data: { k: "b", n: 10 } },
      { id: "batch-1", name: "test/batch", data: { k: "a", n: 1 } },
    ]);
    expect(executor.state().runs.filter((r) => r.functionId === "exec-test-batched" && r.events?.length !== 3).length, "partial batches still gathering").toBe(
      0,
    );
    expect(executor.state().idle, "a batch still gathering is not idle").toBe(false);
    const runs = await executor.waitFor(() => {
      const rs = executor.state().runs.filter((r) => r.functionId === "exec-test-batched");
      return rs.length === 3 && rs.every((r) => r.status === "Completed") ? rs : undefined;
    });
    expect(runs.map((r) => JSON.stringify(r.output)).sort()).toEqual(["[1,2,3]", "[10]", "[4]"]);
    const full = runs.find((r) => r.events?.length === 3)!;
    expect(full.event.id).toBe("batch-1");
    // The two partial batches waited for the timeout (1 s, not time-scaled).
    const partial = runs.filter((r) => r !== full);
    for (const r of partial) expect(Date.parse(r.startedAt) - sent).toBeGreaterThanOrEqual(900);
    expect(Date.parse(full.startedAt) - sent).toBeLessThan(900);
  });

  it("keeps one call per concurrency key in flight and ingests each event id once", async () => {
    const { executor, client, serveUrl, inFlight } = await setup(true);
    await executor.sync(serveUrl);
    await client.send([1, 2, 3].map((n) => ({ id: `conc-${n}`, name: "test/conc", data: { k: "same" } })));
    await client.send({ id: "conc-1", name: "test/conc", data: { k: "same" } });
    await executor.waitFor(() => {
      const rs = executor.state().runs;
      return rs.length === 3 && rs.every((r) => r.status === "Completed") ? true : undefined;
    });
    expect(inFlight.max).toBe(1);
    expect(
      executor
        .state()
        .events.filter((e) => e.duplicate)
        .map((e) => e.id),
    ).toEqual(["conc-1"]);
  });
});

describe("the executor's queue", () => {
  it("holds a backlog in its queue: calls in flight stay under the limit, ended runs and events kept are bounded, ids stay deduplicated", async () => {
    const { executor, client, serveUrl, slowCalls } = await setup(true, { limits: { maxConcurrentCalls: 3, retain: 20 } });
    await executor.sync(serveUrl);
    const first = await client.send({ name: "test/slow", id: "slow-first", data: {} });
    await executor.waitFor(() => executor.state().runs.find((r) => r.event.id === first.ids[0] && r.status === "Completed"));
    await client.send(Array.from({ length: 60 }, (_, i) => ({ name: "test/slow", id: `slow-${i}`, data: {} })));
    await executor.waitFor(
      () =>
        executor.state().runs.filter((r) => r.functionId === "exec-test-slow" && r.status === "Completed").length >= 20 &&
        executor.state().runs.every((r) => r.status === "Completed")
          ? true
          : undefined,
      20_000,
    );
    await executor.waitFor(() => (executor.state().events.filter((e) => e.name === "inngest/function.finished").length >= 10 ? true : undefined));
    expect(slowCalls.max).toBeGreaterThan(1);
    expect(slowCalls.max).toBeLessThanOrEqual(3);
    // 61 runs and their finished events ended; only the newest (with a tenth of slack) are kept.
    expect(executor.state().runs.length).toBeLessThanOrEqual(22);
    expect(executor.state().events.length).toBeLessThanOrEqual(22);
    expect(executor.state().runs.some((r) => r.event.id === first.ids[0])).toBe(false);
    // The first event is gone from the list but not from the deduplication index.
    await client.send({ name: "test/slow", id: "slow-first", data: {} });
    const again = await executor.waitFor(() => executor.state().events.find((e) => e.id === "slow-first"));
    expect(again.duplicate).toBe(true);
  });
});

describe("the executor down", () => {
  it("down(): events are refused and no call reaches the app, a wait that ends meanwhile ends late; up(): the run goes on", async () => {
    const { executor, client, serveUrl } = await setup(true);
    await executor.sync(serveUrl);
    await client.send({ name: "test/steps", data: { n: 1 } });
    // Down once the first step is recorded: the run is in its 1 h nap (0.36 s at this time scale).
    await executor.waitFor(() => executor.state().runs.find((r) => r.steps.some((st) => st.name === "a")));
    await executor.down();
    const calls = executor.state().runs[0]!.calls.length;
    await expect(client.send({ name: "test/steps", data: { n: 2 } })).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 800));
    expect(executor.state().runs[0]).toMatchObject({ status: "Running" });
    expect(executor.state().runs[0]!.calls).toHaveLength(calls);
    await executor.up();
    expect(await runOf(executor, "steps")).toMatchObject({ status: "Completed", output: { b: 2 } });
    expect(executor.state().runs).toHaveLength(1);
  });
});

describe("the executor's clock", () => {
  it("measures sleepUntil from the run's own scaled clock, so consecutive dates wait only for the gap", async () => {
    const executor = await startInngestExecutor({ timeScale: 1e-7 });
    stops.push(() => executor.close());
    const client = new Inngest({ id: "clock", baseUrl: executor.url, isDev: true });
    const day = 86_400_000;
    const fn = client.createFunction({ id: "until", triggers: [{ event: "test/until" }] }, async ({ step }) => {
      const start = await step.run("start", () => Date.now());
      // Day 10, then day 20: the second sleep lasts 10 days on the run's clock, not 20.
      await step.sleepUntil("first", new Date(start + 10 * day));
      await step.sleepUntil("second", new Date(start + 20 * day));
    });
    const server: Server = createServer(serve({ client, functions: [fn] }));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    stops.push(() => new Promise<void>((r) => server.close(() => r())));
    await executor.sync(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/inngest`);
    await client.send({ name: "test/until", data: {} });
    const run = await executor.waitFor(() => executor.state().runs.find((r) => r.status === "Completed"), 10_000);
    const slept = run.steps.filter((st) => st.op === "Sleep").map((st) => Math.round((st.sleptMs ?? 0) / day));
    expect(slept).toEqual([10, 10]);
  });
});

describe("the executor's cron", () => {
  it("runs a cron-triggered function on demand", async () => {
    const { executor, serveUrl } = await setup(true);
    await executor.sync(serveUrl);
    executor.runCron("nightly");
    const run = await runOf(executor, "nightly");
    expect(run).toMatchObject({ status: "Completed", output: "swept" });
    expect(run.event.name).toBe("inngest/scheduled.timer");
    expect(() => executor.runCron("no-such-function")).toThrow(/no function/);
  });
});

describe("the executor's protocol details", () => {
  it("is refused by a cloud-mode SDK when it does not sign its calls", async () => {
    const { executor, client, serveUrl } = await setup(true, { signs: false });
    await executor.sync(serveUrl);
    await client.send({ name: "test/steps", data: { n: 1 } });
    const run = await runOf(executor, "steps");
    expect(run.status).toBe("Failed");
    expect(run.calls.every((c) => c.status === 401)).toBe(true);
  });

  it("refuses SDK requests without the signing key's hash and events with another key", async () => {
    const { executor } = await setup(true);
    expect((await fetch(`${executor.url}/fn/register`, { method: "POST", body: "{}" })).status).toBe(401);
    expect((await fetch(`${executor.url}/e/wrong`, { method: "POST", body: "{}" })).status).toBe(401);
  });

  it("signs as the SDK spec says and reads its time strings, expressions and cron", () => {
    expect(hashedSigningKey("signkey-prod-12345678")).toBe("signkey-prod-b2ed992186a5cb19f6668aade821f502c1d00970dfd0e35128d51bac4649916c");
    expect(signRequest("{}", "signkey-test-00", 1)).toMatch(/^t=1&s=[0-9a-f]{64}$/);
    expect(canonicalJson({ b: 1, a: [{ d: null, c: "x" }], u: undefined })).toBe('{"a":[{"c":"x","d":null}],"b":1}');
    expect(durationMs("1h30m")).toBe(5_400_000);
    expect(durationMs("2026-01-02T00:00:00.000Z", Date.parse("2026-01-01T00:00:00.000Z"))).toBe(86_400_000);
    expect(evaluate("async.data.id == event.data.id", { async: { data: { id: 1 } }, event: { data: { id: 1 } } })).toBe(true);
    expect(evaluate("event.data.function_id == 'x-y'", { event: { data: { function_id: "x-z" } } })).toBe(false);
    expect(() => evaluate("size(event.data) > 1", {})).toThrow(/not supported/);
    // The routed triggers (inngest/client.ts routedTrigger): false filters out; true or absent starts.
    const routed = "event.data.routes.webhooks != false";
    expect(evaluate(routed, { event: { data: { routes: { webhooks: false, partner: true } } } })).toBe(false);
    expect(evaluate(routed, { event: { data: { routes: { webhooks: true, partner: false } } } })).toBe(true);
    expect(evaluate(routed, { event: { data: {} } })).toBe(true);
    expect(cronMatches("17 3 * * *", new Date("2026-01-01T03:17:00Z"))).toBe(true);
    expect(cronMatches("*/5 * * * *", new Date("2026-01-01T03:17:00Z"))).toBe(false);
  });
});
