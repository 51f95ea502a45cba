import { randomToken, sha256Hex } from "@/lib/crypto";

/** A new client secret: shown once, stored only as its SHA-256. */
export function newClientSecret(): { secret: string; secretHash: string; secretHint: string } {
  const secret = randomToken(32, "cps_");
  return { secret, secretHash: sha256Hex(secret), secretHint: secret.slice(-4) };
}

export function newClientId(): string {
  return randomToken(16, "cpc_");
}
