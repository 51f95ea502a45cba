import { describe, expect, it } from "vitest";
import { planReminders, reminderPoints } from "./reminder-schedule";

describe("reminderPoints", () => {
  const due = new Date("2030-05-20T09:15:00.000Z");

  it("gives the five points at the due date's time of day, in order", () => {
    expect(reminderPoints(due, new Date("2030-04-30T09:15:00.000Z"))).toEqual([
      { offsetDays: -14, at: "2030-05-06T09:15:00.000Z", label: "14d-before" },
      { offsetDays: -7, at: "2030-05-13T09:15:00.000Z", label: "7d-before" },
      { offsetDays: -3, at: "2030-05-17T09:15:00.000Z", label: "3d-before" },
      { offsetDays: 0, at: "2030-05-20T09:15:00.000Z", label: "due" },
      { offsetDays: 7, at: "2030-05-27T09:15:00.000Z", label: "7d-after" },
    ]);
  });

  it("skips points already past", () => {
    expect(reminderPoints(due, new Date("2030-05-15T00:00:00.000Z")).map((p) => p.offsetDays)).toEqual([-3, 0, 7]);
    expect(reminderPoints(due, new Date("2030-05-20T09:15:00.000Z")).map((p) => p.offsetDays)).toEqual([0, 7]);
    expect(reminderPoints(due, new Date("2030-05-27T09:15:00.001Z"))).toEqual([]);
  });
});

describe("planReminders", () => {
  const DAY = 24 * 60 * 60 * 1000;
  const now = new Date("2030-01-01T00:00:00.000Z");

  it("keeps every sleep within the maximum: a task due in 500 days wakes every 7 days on the way", () => {
    const due = new Date(now.getTime() + 500 * DAY);
    const plan = planReminders(due, now, 7 * DAY);
    const times = [now.getTime(), ...plan.flatMap((p) => [...p.wakes, p.at].map((t) => new Date(t).getTime()))];
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(7 * DAY);
    expect(gaps.every((g) => g > 0)).toBe(true);
    // 486 days to the first point: 69 wakes of 7 days, then the last 3 days.
    expect(plan[0]!.wakes).toHaveLength(69);
    expect(plan.map((p) => p.at)).toEqual(reminderPoints(due, now).map((p) => p.at));
    expect(plan.slice(1).map((p) => p.wakes.length)).toEqual([0, 0, 0, 0]);
  });

  it("adds no wake-ups when the points are close, and follows a smaller maximum", () => {
    const due = new Date(now.getTime() + 20 * DAY);
    expect(planReminders(due, now, 7 * DAY).every((p) => p.wakes.length === 0)).toBe(true);
    expect(planReminders(due, now, 2 * DAY).map((p) => p.wakes.length)).toEqual([2, 3, 1, 1, 3]);
  });
});
