import { describe, expect, it } from "vitest";
import { isLastAttempt, retryDelaySeconds } from "./retry";

const d26 = { baseSeconds: 60, windowSeconds: 24 * 3600 };

describe("the partner push schedule (D26)", () => {
  it("waits 1 min doubling, capped at 1 h", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((n) => retryDelaySeconds(n, d26))).toEqual([60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]);
  });

  it("ends the window at the attempt after which the next would start past 24 hours: 29 attempts", () => {
    const last = Array.from({ length: 40 }, (_, i) => i + 1).find((n) => isLastAttempt(n, d26));
    expect(last).toBe(29);
    // Attempt 29 starts 63 + 22 × 60 min = 23 h 3 min into the window; a 30th would start after 24 h 3 min.
    let startsAt = 0;
    for (let n = 1; n < 29; n++) startsAt += retryDelaySeconds(n, d26);
    expect(startsAt).toBe((63 + 22 * 60) * 60);
  });

  it("follows a shorter base and window (tests, the sandbox)", () => {
    const short = { baseSeconds: 1, windowSeconds: 7 };
    // Attempts at 0, 1, 3 and 7 s; an attempt at 15 s would be past the window.
    expect([1, 2, 3, 4].map((n) => isLastAttempt(n, short))).toEqual([false, false, false, true]);
  });
});
