import "server-only";
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/env";

// Encrypt what must be shown or used again (webhook secrets, signing keys, partner credentials);
// hash what is only ever compared (client secrets, refresh tokens, codes, invitation tokens).

const VERSION = "v1";

/** AES-256-GCM with APP_ENCRYPTION_KEY; output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encrypt(plaintext: string, key: Buffer = env().APP_ENCRYPTION_KEY): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function decrypt(sealed: string, key: Buffer = env().APP_ENCRYPTION_KEY): string {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
    throw new Error("Unrecognised encrypted value");
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}

/** SHA-256 hex: enough for high-entropy random tokens, which cannot be guessed from the hash. */
export function sha256Hex(value: string | Buffer): string {
  return createHash("sha256").update(value).digest("hex");
}

/** A random token of `bytes` bytes, base64url, with an optional readable prefix. */
export function randomToken(bytes = 32, prefix = ""): string {
  return prefix + randomBytes(bytes).toString("base64url");
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
