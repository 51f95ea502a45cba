import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { kickEventRelay, startEventRelay, type EventRelayHandle } from "@/lib/events/event-relay";
import { captureLog, restoreLogger, type LogLine } from "@/lib/test-support/log-capture";

// The relay's scheduling, with a scripted dispatch and fake timers: no database, no Inngest.

type Outcome = { sent: number; failed: number } | Error;

function scriptedDispatch(outcomes: Outcome[], durationMs = 0) {
  const calls: number[] = [];
  let active = 0;
  let maxActive = 0;
  const dispatch = async () => {
    calls.push(Date.now());
    active += 1;
    maxActive = Math.max(maxActive, active);
    try {
      if (durationMs > 0) await new Promise((r) => setTimeout(r, durationMs));
      const next = outcomes.length > 1 ? outcomes.shift() : outcomes[0];
      if (next === undefined) return { sent: 0, failed: 0 };
      if (next instanceof Error) throw next;
      return next;
    } finally {
      active -= 1;
    }
  };
  return { dispatch, calls, maxActive: () => maxActive };
}

const idle = { sent: 0, failed: 0 };
const down = { sent: 0, failed: 3 };
let relay: EventRelayHandle | undefined;
let logged: LogLine[] = [];

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  logged = captureLog();
});

afterEach(async () => {
  await relay?.stop();
  relay = undefined;
  vi.useRealTimers();
  vi.restoreAllMocks();
  restoreLogger();
});

describe("startEventRelay", () => {
  it("runs at once, then every interval while there is nothing to do", async () => {
    const s = scriptedDispatch([idle]);
    relay = startEventRelay({ intervalMs: 1000, dispatch: s.dispatch });
    await vi.advanceTimersByTimeAsync(3500);
    expect(s.calls).toEqual([0, 1000, 2000, 3000]);
  });

  it("backs off from the interval, doubling up to the cap, while sends fail; then recovers", async () => {
    const s = scriptedDispatch([down, down, down, down, down, down, down, idle]);
    relay = startEventRelay({ intervalMs: 1000, maxBackoffMs: 10_000, dispatch: s.dispatch });
    await vi.advanceTimersByTimeAsync(60_000);
    const gaps = s.calls.slice(1, 10).map((t, i) => t - (s.calls[i] ?? 0));
    expect(gaps).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 1000, 1000]);
    // One line when the outage starts, one when it ends.
    expect(logged.map((l) => [l["level"], l["component"]])).toEqual([
      ["warn", "event-relay"],
      ["info", "event-relay"],
    ]);
  });

  it("backs off when a run throws (e.g. the database is down)", async () => {
    const s = scriptedDispatch([new Error("db down"), new Error("db down"), idle]);
    relay = startEventRelay({ intervalMs: 1000, dispatch: s.dispatch });
    await vi.advanceTimersByTimeAsync(5000);
    expect(s.calls.slice(0, 4)).toEqual([0, 1000, 3000, 4000]);
  });

  it("drains without waiting while batches come back full", async () => {
    const s = scriptedDispatch([{ sent: 10, failed: 0 }, { sent: 10, failed: 0 }, { sent: 3, failed: 0 }, idle]);
    relay = startEventRelay({ intervalMs: 1000, limit: 10, dispatch: s.dispatch });
    await vi.advanceTimersByTimeAsync(1500);
    expect(s.calls).toEqual([0, 0, 0, 1000]);
  });

  it("never overlaps runs; a kick during a run adds one run right after it", async () => {
    const s = scriptedDispatch([idle], 300);
    relay = startEventRelay({ intervalMs: 1000, dispatch: s.dispatch });
    await vi.advanceTimersByTimeAsync(100);
    kickEventRelay();
    kickEventRelay();
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(1000);
    expect(s.maxActive()).toBe(1);
    expect(s.calls).toEqual([0, 300]);
  });

  it("runs at once when kicked between runs", async () => {
    const s = scriptedDispatch([idle]);
    relay = startEventRelay({ intervalMs: 10_000, dispatch: s.dispatch });
    await vi.advanceTimersByTimeAsync(2000);
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(1);
    expect(s.calls).toEqual([0, 2000]);
  });

  it("gathers the kicks that follow a run: the next run starts gatherMs after the last one started", async () => {
    const s = scriptedDispatch([idle], 3);
    relay = startEventRelay({ intervalMs: 10_000, gatherMs: 20, dispatch: s.dispatch });
    await vi.advanceTimersByTimeAsync(5);
    // Three writes commit 5, 6 and 12 ms after the run at 0 started: one run at 20 takes them all.
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(1);
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(6);
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(9);
    // A kick during that run (at 21, it lasts 3 ms): one more run, 20 ms after it started.
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(100);
    // A kick long after (at 121): at once.
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(10);
    expect(s.calls).toEqual([0, 20, 40, 121]);
    expect(s.maxActive()).toBe(1);
  });

  it("ignores kicks while backing off", async () => {
    const s = scriptedDispatch([down]);
    relay = startEventRelay({ intervalMs: 1000, dispatch: s.dispatch });
    await vi.advanceTimersByTimeAsync(1500);
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(100);
    expect(s.calls).toEqual([0, 1000]);
  });

  it("keeps one relay per process and stops for good", async () => {
    const s = scriptedDispatch([idle]);
    relay = startEventRelay({ intervalMs: 1000, dispatch: s.dispatch });
    const other = scriptedDispatch([idle]);
    const second = startEventRelay({ intervalMs: 1000, dispatch: other.dispatch });
    await vi.advanceTimersByTimeAsync(1500);
    expect(other.calls).toEqual([]);
    await second.stop();
    const count = s.calls.length;
    await vi.advanceTimersByTimeAsync(5000);
    kickEventRelay();
    await vi.advanceTimersByTimeAsync(10);
    expect(s.calls).toHaveLength(count);
  });

  it("does nothing on a kick when no relay runs", () => {
    expect(() => kickEventRelay()).not.toThrow();
  });
});
