import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatDay, formatExact, formatRelative, fromZonedInput, toZonedInput } from "./format";
import { canonicalTimeZone, TimeZoneSchema, timeZoneNames } from "./zones";

describe("formatDate and formatDateTime", () => {
  const at = new Date("2026-11-25T19:05:09Z");

  it("write one format, in the zone asked for", () => {
    expect(formatDateTime(at, "UTC")).toBe("25 Nov 2026, 19:05");
    expect(formatDateTime(at, "America/New_York")).toBe("25 Nov 2026, 14:05");
    expect(formatDateTime(at, "Asia/Tokyo")).toBe("26 Nov 2026, 04:05");
    expect(formatDate(at, "Asia/Tokyo")).toBe("26 Nov 2026");
    expect(formatDate(new Date("2026-09-03T12:00:00Z"), "Europe/London")).toBe("3 Sep 2026");
  });

  it("follow daylight saving", () => {
    // New York: EDT (UTC−4) until 1 Nov 2026 06:00 UTC, EST (UTC−5) after; London: BST until 25 Oct.
    expect(formatDateTime(new Date("2026-10-31T16:00:00Z"), "America/New_York")).toBe("31 Oct 2026, 12:00");
    expect(formatDateTime(new Date("2026-11-02T16:00:00Z"), "America/New_York")).toBe("2 Nov 2026, 11:00");
    expect(formatDateTime(new Date("2026-07-01T00:30:00Z"), "Europe/London")).toBe("1 Jul 2026, 01:30");
    expect(formatDateTime(new Date("2026-12-01T00:30:00Z"), "Europe/London")).toBe("1 Dec 2026, 00:30");
    expect(formatDateTime(new Date("2026-03-08T07:30:00Z"), "America/New_York")).toBe("8 Mar 2026, 03:30");
  });

  it("give the exact moment with the zone and its offset", () => {
    expect(formatExact(at, "America/New_York")).toBe("25 Nov 2026, 14:05:09 America/New_York (UTC−05:00)");
    expect(formatExact(at, "Asia/Kolkata")).toBe("26 Nov 2026, 00:35:09 Asia/Kolkata (UTC+05:30)");
    expect(formatExact(at, "UTC")).toBe("25 Nov 2026, 19:05:09 UTC (UTC+00:00)");
  });
});

describe("formatDay", () => {
  it("keeps a date-only value on its day, whatever the process's zone", () => {
    expect(formatDay("2026-11-25")).toBe("25 Nov 2026");
    expect(formatDay(new Date(Date.UTC(2026, 10, 25)))).toBe("25 Nov 2026");
    expect(formatDay("2026-01-01")).toBe("1 Jan 2026");
  });
});

describe("formatRelative", () => {
  const now = new Date("2026-11-25T12:00:00Z");
  const ago = (ms: number) => formatRelative(new Date(now.getTime() - ms), now);

  it("says how long ago, in the largest whole unit", () => {
    expect(ago(20_000)).toBe("just now");
    expect(ago(5 * 60_000 + 59_000)).toBe("5 min ago");
    expect(ago(2 * 3_600_000 + 59 * 60_000)).toBe("2 h ago");
    expect(ago(30 * 3_600_000)).toBe("1 day ago");
    expect(ago(3 * 86_400_000)).toBe("3 days ago");
  });

  it("says how long until a future moment", () => {
    expect(ago(-3 * 86_400_000 - 1000)).toBe("in 3 days");
    expect(ago(-90 * 60_000)).toBe("in 1 h");
  });

  it("gives up at a week: the date says more", () => {
    expect(ago(7 * 86_400_000)).toBeNull();
    expect(ago(-30 * 86_400_000)).toBeNull();
  });
});

describe("datetime-local inputs in a zone", () => {
  it("read the wall time in the zone, across daylight saving", () => {
    expect(fromZonedInput("2026-11-25T14:05", "America/New_York")?.toISOString()).toBe("2026-11-25T19:05:00.000Z");
    expect(fromZonedInput("2026-07-01T09:00", "America/New_York")?.toISOString()).toBe("2026-07-01T13:00:00.000Z");
    expect(fromZonedInput("2026-03-29T12:00", "Europe/London")?.toISOString()).toBe("2026-03-29T11:00:00.000Z");
    expect(fromZonedInput("2026-11-25T23:59:59", "Asia/Tokyo")?.toISOString()).toBe("2026-11-25T14:59:59.000Z");
    expect(fromZonedInput("25/11/2026", "UTC")).toBeNull();
  });

  it("write the wall time back", () => {
    expect(toZonedInput(new Date("2026-11-25T19:05:00Z"), "America/New_York")).toBe("2026-11-25T14:05");
    for (const zone of ["Europe/Berlin", "Australia/Sydney", "UTC"]) {
      expect(fromZonedInput(toZonedInput(new Date("2026-04-05T08:30:00Z"), zone), zone)?.toISOString()).toBe("2026-04-05T08:30:00.000Z");
    }
  });
});

describe("time zone names", () => {
  it("accept IANA names, in the runtime's spelling", () => {
    expect(canonicalTimeZone("America/New_York")).toBe("America/New_York");
    expect(canonicalTimeZone("europe/london")).toBe("Europe/London");
    expect(TimeZoneSchema.parse(" UTC ")).toBe("UTC");
    expect(timeZoneNames()[0]).toBe("UTC");
    expect(timeZoneNames()).toContain("Europe/London");
  });

  it("refuse anything else, with a message naming the fix", () => {
    for (const bad of ["Mars/Olympus", "+05:00", "EST5EDT; DROP", "", "Europe/"]) expect(canonicalTimeZone(bad) ?? null, bad).toBeNull();
    const result = TimeZoneSchema.safeParse("Mars/Olympus");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/not a time zone: choose one from the list.*Europe\/London/);
  });
});
