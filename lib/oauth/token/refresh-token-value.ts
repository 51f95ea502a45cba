import { createHmac, hkdfSync, randomUUID } from "node:crypto";
import { sha256Hex } from "@/lib/crypto";
import type { Tx } from "@/lib/db";
import { env } from "@/lib/env";

// A refresh token is HMAC(K, row id), K derived from APP_ENCRYPTION_KEY. The database keeps only
// its SHA-256 (D23), yet the server can compute the plaintext of the current token of a chain
// again: that is what the 60 s grace needs to answer a retried refresh with the CURRENT token
// instead of forking the chain. Whoever could recompute a token holds APP_ENCRYPTION_KEY, which
// already opens the signing keys, so this gives an attacker nothing they would not have.

export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;
const PREFIX = "cpr_";

let derived: { from: Buffer; key: Buffer } | undefined;

function derivationKey(): Buffer {
  const master = env().APP_ENCRYPTION_KEY;
  if (derived?.from !== master) {
    // A separate key per purpose: the encryption key itself never keys an HMAC.
    derived = { from: master, key: Buffer.from(hkdfSync("sha256", master, "", "client-portals oauth refresh token v1", 32)) };
  }
  return derived.key;
}

/** The plaintext refresh token of the row with this id. */
export function refreshTokenFor(rowId: string): string {
  return PREFIX + createHmac("sha256", derivationKey()).update(rowId).digest("base64url");
}

export const refreshTokenHash = (token: string): string => sha256Hex(token);

/** Stores a new refresh token (30 days from now) and returns its plaintext. */
export async function createRefreshToken(tx: Tx, input: { grantId: string; scopes: string[]; parentId: string | null }): Promise<string> {
  const id = randomUUID();
  const token = refreshTokenFor(id);
  await tx.oAuthRefreshToken.create({
    data: {
      id,
      grantId: input.grantId,
      parentId: input.parentId,
      tokenHash: refreshTokenHash(token),
      scopes: input.scopes,
      expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_SECONDS * 1000),
    },
  });
  return token;
}
