import { describe, expect, it } from "vitest";
import { currentPeriod, firstPeriod, nextPeriod, occursAt } from "./recurrence";

const d = (iso: string) => new Date(iso);

describe("recurrence periods", () => {
  it("occur on the day, or on the month's last day when it is shorter", () => {
    expect(occursAt({ dayOfMonth: 31 }, "2027-02").toISOString()).toBe("2027-02-28T00:00:00.000Z");
    expect(occursAt({ dayOfMonth: 31 }, "2028-02").toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(occursAt({ dayOfMonth: 5 }, "2027-12").toISOString()).toBe("2027-12-05T00:00:00.000Z");
  });

  it("give the latest due period, stepping by the frequency from the first", () => {
    const monthly = { frequency: "monthly" as const, dayOfMonth: 10, startPeriod: "2027-01" };
    expect(currentPeriod(monthly, d("2027-01-09T23:59:59Z"))).toBeNull();
    expect(currentPeriod(monthly, d("2027-01-10T00:00:00Z"))).toBe("2027-01");
    expect(currentPeriod(monthly, d("2027-03-09T00:00:00Z"))).toBe("2027-02");
    const quarterly = { frequency: "quarterly" as const, dayOfMonth: 1, startPeriod: "2027-02" };
    expect(currentPeriod(quarterly, d("2027-07-15T00:00:00Z"))).toBe("2027-05");
    expect(currentPeriod(quarterly, d("2027-08-01T00:00:00Z"))).toBe("2027-08");
    const yearly = { frequency: "yearly" as const, dayOfMonth: 15, startPeriod: "2027-04" };
    expect(currentPeriod(yearly, d("2029-04-14T00:00:00Z"))).toBe("2028-04");
  });

  it("give the next period strictly after now", () => {
    const monthly = { frequency: "monthly" as const, dayOfMonth: 10, startPeriod: "2027-01" };
    expect(nextPeriod(monthly, d("2026-11-01T00:00:00Z"))).toBe("2027-01");
    expect(nextPeriod(monthly, d("2027-01-10T00:00:00Z"))).toBe("2027-02");
    expect(nextPeriod(monthly, d("2027-12-11T00:00:00Z"))).toBe("2028-01");
    const quarterly = { frequency: "quarterly" as const, dayOfMonth: 1, startPeriod: "2027-02" };
    expect(nextPeriod(quarterly, d("2027-03-01T00:00:00Z"))).toBe("2027-05");
  });

  it("start this month when the day is still ahead, else next month", () => {
    expect(firstPeriod(15, d("2027-01-10T12:00:00Z"))).toBe("2027-01");
    expect(firstPeriod(10, d("2027-01-10T12:00:00Z"))).toBe("2027-01");
    expect(firstPeriod(5, d("2027-12-10T12:00:00Z"))).toBe("2028-01");
  });
});
