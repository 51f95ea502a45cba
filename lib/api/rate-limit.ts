import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// D7: requests per OAuth client per UTC day. One atomic INSERT ... ON CONFLICT DO UPDATE per
// request, so concurrent requests never lose a count. Every authenticated request counts, the
// rejected ones (403, 404, 429...) included; requests without a valid token (401) are not
// counted, since no client can be trusted from them.

export interface RateLimitState {
  limit: number;
  /** Requests counted today, this one included. */
  count: number;
  /** Unix seconds of the next 00:00 UTC. */
  reset: number;
  now: Date;
}

/** The UTC calendar day of `now` as a Date at 00:00 UTC (the @db.Date column). */
export function utcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

export function nextUtcMidnightSeconds(now: Date): number {
  return utcDay(now).getTime() / 1000 + 86_400;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(state.limit),
    "X-RateLimit-Remaining": String(Math.max(0, state.limit - state.count)),
    "X-RateLimit-Reset": String(state.reset),
  };
}

/** 429 with Retry-After: the seconds until the window resets (at least 1). */
export function rateLimitError(state: RateLimitState): AppError | null {
  if (state.count <= state.limit) return null;
  const retryAfter = Math.max(1, Math.ceil(state.reset - state.now.getTime() / 1000));
  return new AppError("rate_limit_exceeded", `The limit of ${state.limit} requests per day for this client is reached; it resets at 00:00 UTC`, {
    "Retry-After": String(retryAfter),
  });
}

/** Counts one request of the client (OAuthClient.id) and returns today's state. */
export async function countRequest(clientRecordId: string, now = new Date()): Promise<RateLimitState> {
  // As 'YYYY-MM-DD' text: a timestamp parameter would be cast to a date in the session's time zone.
  const day = utcDay(now).toISOString().slice(0, 10);
  const rows = await db.$queryRaw<{ count: number }[]>`
    INSERT INTO "RateLimitCounter" ("clientId", "day", "count")
    VALUES (${clientRecordId}::uuid, ${day}::date, 1)
    ON CONFLICT ("clientId", "day") DO UPDATE SET "count" = "RateLimitCounter"."count" + 1
    RETURNING "count"`;
  const count = Number(rows[0]?.count ?? 1);
  return { limit: env().API_RATE_LIMIT_PER_DAY, count, reset: nextUtcMidnightSeconds(now), now };
}
