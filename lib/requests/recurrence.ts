import type { RecurrenceFrequency } from "./schemas";

// The periods of a recurring request, in UTC: a period is a month ("YYYY-MM"); a schedule's
// periods step from its first by 1 (monthly), 3 (quarterly) or 12 (yearly) months, and each
// occurs on its day of the month (the month's last day when the month is shorter), at 00:00 UTC.

const STEP: Record<RecurrenceFrequency, number> = { monthly: 1, quarterly: 3, yearly: 12 };

export interface Schedule {
  frequency: RecurrenceFrequency;
  dayOfMonth: number;
  startPeriod: string;
}

const monthIndex = (period: string) => {
  const [y, m] = period.split("-").map(Number);
  return y! * 12 + (m! - 1);
};
const periodOf = (index: number) => `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}`;

function periodOfDate(at: Date): string {
  return periodOf(at.getUTCFullYear() * 12 + at.getUTCMonth());
}

/** When the period's occurrence is due. */
export function occursAt(schedule: Pick<Schedule, "dayOfMonth">, period: string): Date {
  const index = monthIndex(period);
  const year = Math.floor(index / 12);
  const month = index % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(schedule.dayOfMonth, lastDay)));
}

/** The schedule's latest period due at `now` (its occurrence at or before now), or null before the first. */
export function currentPeriod(schedule: Schedule, now: Date): string | null {
  const step = STEP[schedule.frequency];
  const start = monthIndex(schedule.startPeriod);
  const steps = Math.floor((monthIndex(periodOfDate(now)) - start) / step);
  for (let k = steps; k >= 0; k--) {
    const period = periodOf(start + k * step);
    if (occursAt(schedule, period) <= now) return period;
  }
  return null;
}

/** The first period due strictly after `now`. */
export function nextPeriod(schedule: Schedule, now: Date): string {
  const step = STEP[schedule.frequency];
  const start = monthIndex(schedule.startPeriod);
  let k = Math.max(0, Math.floor((monthIndex(periodOfDate(now)) - start) / step));
  while (occursAt(schedule, periodOf(start + k * step)) <= now) k++;
  return periodOf(start + k * step);
}

/** The first period of a schedule made at `now`: this month's when its day is still ahead (or today), else the next month's. */
export function firstPeriod(dayOfMonth: number, now: Date): string {
  const thisMonth = periodOfDate(now);
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  return occursAt({ dayOfMonth }, thisMonth) >= today ? thisMonth : periodOf(monthIndex(thisMonth) + 1);
}
