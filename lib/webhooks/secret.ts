import { createHmac } from "node:crypto";
import { randomToken } from "@/lib/crypto";

/** `whsec_` + 32 random bytes in base64url (43 characters): 49 characters in all. */
export function newWebhookSecret(): string {
  return randomToken(32, "whsec_");
}

/**
 * `X-Webhook-Signature`: lowercase hex HMAC-SHA256 of the exact body bytes, keyed with the secret
 * string's UTF-8 bytes (D19), prefix included.
 */
export function signWebhookBody(secret: string, body: Uint8Array | string): string {
  return createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex");
}
