import { env } from "@/lib/env";

// The numbers of webhook delivery (D19, D20), in one place.

/** D19. */
export const MAX_WEBHOOKS_PER_ORG = 25;
/** D20: success is a 2xx within this time. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** D20: the first attempt and three retries. */
export const MAX_ATTEMPTS = 4;
/** The attempt log keeps this much of each response body. */
export const RESPONSE_BODY_LIMIT = 1024;
/** Deliveries (with their attempts) are kept this long after they finished. */
export const DELIVERY_RETENTION_DAYS = 30;

/**
 * Seconds to wait after failed attempt `n` (1-based) before the next: base, 4×base, 16×base
 * (30 s, 2 min, 8 min by default; WEBHOOK_RETRY_BASE_SECONDS lowers it in tests).
 */
export function retryDelaySeconds(n: number, base: number = env().WEBHOOK_RETRY_BASE_SECONDS): number {
  return base * 4 ** (n - 1);
}
