// D18 reminder points: 14, 7, 3 and 0 days before the due date and 7 days after, at the due
// date's time of day (whole days of 24 hours in UTC). Pure, so the schedule is unit-tested.

const REMINDER_OFFSETS_DAYS = [-14, -7, -3, 0, 7] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ReminderPoint {
  offsetDays: number;
  /** ISO date-time; a string so that it survives Inngest's step memoisation unchanged. */
  at: string;
  /** Step id part: `14d-before`, `7d-before`, `3d-before`, `due`, `7d-after`. */
  label: string;
}

export function reminderLabel(offsetDays: number): string {
  if (offsetDays === 0) return "due";
  return offsetDays < 0 ? `${-offsetDays}d-before` : `${offsetDays}d-after`;
}

/** The points not yet past at `now`, in order. */
export function reminderPoints(dueDate: Date, now: Date): ReminderPoint[] {
  return REMINDER_OFFSETS_DAYS.map((offsetDays) => ({
    offsetDays,
    at: new Date(dueDate.getTime() + offsetDays * DAY_MS).toISOString(),
    label: reminderLabel(offsetDays),
  })).filter((p) => new Date(p.at).getTime() >= now.getTime());
}

/** A point of a reminder run's plan, with the times to wake up on the way to it. */
export interface PlannedReminderPoint extends ReminderPoint {
  /** ISO times, each at most maxSleepMs after the previous wake (or point); empty when close. */
  wakes: string[];
}

/**
 * The reminder run's plan (D18): the points not yet past, each with the intermediate wake-ups that
 * keep every sleep within `maxSleepMs` (Inngest caps one sleep at a year, at 7 days on its free
 * plan). Computed once, in a step, so that replays see the same step ids.
 */
export function planReminders(dueDate: Date, now: Date, maxSleepMs: number): PlannedReminderPoint[] {
  let from = now.getTime();
  return reminderPoints(dueDate, now).map((point) => {
    const at = new Date(point.at).getTime();
    const wakes: string[] = [];
    while (at - from > maxSleepMs) {
      from += maxSleepMs;
      wakes.push(new Date(from).toISOString());
    }
    from = at;
    return { ...point, wakes };
  });
}
