import { describe, expect, it } from "vitest";
import { reminderPoints } from "./reminder-schedule";

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
