import { createHmac } from "node:crypto";
import { randomToken } from "@/lib/crypto";

/** `whsec_` + 32 random bytes in base64url (43 characters): 49 characters in all. */
export function newWebhookSecret(): string {
  return randomToken(32, "whsec_");
}

/** How long a rotated-out secret still signs deliveries (beside the new one). */
export const SECRET_GRACE_MS = 24 * 3600 * 1000;

/**
 * `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret
 * string's UTF-8 bytes (D19), prefix included.
 */
export function signWebhookBody(secret: string, body: Uint8Array | string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex");
}

/**
 * A Standard Webhooks signature (`v1,<base64>`): HMAC-SHA256 of `<id>.<timestamp>.<body>`, keyed
 * with the same bytes as X-Webhook-Signature (the secret string's UTF-8 bytes, `whsec_` included).
 * The reference libraries verify it with the secret given as raw key bytes (docs/api.md).
 */
export function signStandardWebhook(secret: string, id: string, timestamp: number, body: Uint8Array | string): string {
  return `v1,${createHmac("sha256", Buffer.from(secret, "utf8")).update(`${id}.${timestamp}.`).update(body).digest("base64")}`;
}

export interface SigningInput {
  /** The webhook's secret. */
  secret: string;
  /** The secret a rotation replaced, while its grace period lasts. */
  previousSecret?: string | null;
  /** The delivery id: `X-Webhook-Delivery-Id` and `webhook-id` (the same for every attempt). */
  deliveryId: string;
  /** The attempt's time: `webhook-timestamp` in whole seconds. */
  sentAt: Date;
  body: Uint8Array;
}

/**
 * The signature headers of one attempt, each HMAC computed once per secret: the contract's
 * `X-Webhook-Signature` (the current secret; `X-Webhook-Signature-Previous` with the previous one
 * during a grace period) and Standard Webhooks' `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (one `v1,` signature per secret, current first, space-separated).
 */
export function signatureHeaders({ secret, previousSecret, deliveryId, sentAt, body }: SigningInput): Record<string, string> {
  const timestamp = Math.floor(sentAt.getTime() / 1000);
  const secrets = previousSecret ? [secret, previousSecret] : [secret];
  return {
    "X-Webhook-Signature": signWebhookBody(secret, body),
    ...(previousSecret ? { "X-Webhook-Signature-Previous": signWebhookBody(previousSecret, body) } : {}),
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": secrets.map((s) => signStandardWebhook(s, deliveryId, timestamp, body)).join(" "),
  };
}
