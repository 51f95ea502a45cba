import { describe, expect, it } from "vitest";
import { nextUtcMidnightSeconds, rateLimitError, rateLimitHeaders, utcDay } from "./rate-limit";

const now = new Date("2025-06-30T23:59:30.250Z");

describe("rate limit window", () => {
  it("is the UTC calendar day, resetting at the next 00:00 UTC", () => {
    expect(utcDay(now).toISOString()).toBe("2025-06-30T00:00:00.000Z");
    expect(nextUtcMidnightSeconds(now)).toBe(Date.parse("2025-07-01T00:00:00Z") / 1000);
  });

  it("reports limit, remaining (never below 0) and reset", () => {
    const reset = nextUtcMidnightSeconds(now);
    expect(rateLimitHeaders({ limit: 10, count: 4, reset, now })).toEqual({
      "X-RateLimit-Limit": "10",
      "X-RateLimit-Remaining": "6",
      "X-RateLimit-Reset": String(reset),
    });
    expect(rateLimitHeaders({ limit: 10, count: 12, reset, now })["X-RateLimit-Remaining"]).toBe("0");
  });

  it("allows the limit-th request and refuses the next with Retry-After until midnight", () => {
    const reset = nextUtcMidnightSeconds(now);
    expect(rateLimitError({ limit: 10, count: 10, reset, now })).toBeNull();
    const error = rateLimitError({ limit: 10, count: 11, reset, now });
    expect(error?.status).toBe(429);
    expect(error?.code).toBe("rate_limit_exceeded");
    expect(error?.headers["Retry-After"]).toBe("30");
  });
});
