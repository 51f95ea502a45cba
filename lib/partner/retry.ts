import { env } from "@/lib/env";

// D26: 1 min doubling, capped at 1 h, for 24 hours (PARTNER_RETRY_BASE_SECONDS and
// PARTNER_RETRY_WINDOW_HOURS change the base and the window, for tests and the sandbox).

const MAX_DELAY_SECONDS = 3600;

export interface RetrySchedule {
  baseSeconds: number;
  windowSeconds: number;
}

export function retryScheduleFromEnv(): RetrySchedule {
  const e = env();
  return { baseSeconds: e.PARTNER_RETRY_BASE_SECONDS, windowSeconds: e.PARTNER_RETRY_WINDOW_HOURS * 3600 };
}

/** The wait after attempt n (1-based). */
export function retryDelaySeconds(n: number, schedule: RetrySchedule = retryScheduleFromEnv()): number {
  return Math.min(schedule.baseSeconds * 2 ** Math.min(n - 1, 40), MAX_DELAY_SECONDS);
}

/**
 * Attempt n is the window's last when the next one would start past the window, counting the
 * planned waits from the window's start (not the wall clock, so a replayed run decides the same).
 */
export function isLastAttempt(n: number, schedule: RetrySchedule = retryScheduleFromEnv()): boolean {
  let elapsed = 0;
  for (let k = 1; k <= n; k++) elapsed += retryDelaySeconds(k, schedule);
  return elapsed > schedule.windowSeconds;
}
