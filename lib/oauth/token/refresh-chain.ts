import type { Tx } from "@/lib/db";

// Reading and locking a refresh token chain inside a transaction.

/**
 * Locks the grant row for the rest of the transaction. Every refresh and every revocation of a
 * grant goes through this row first, so concurrent refreshes of one chain run one after another
 * (the second sees what the first committed) and lock order is always grant, then tokens.
 */
export async function lockGrant(tx: Tx, grantId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "OAuthGrant" WHERE id = ${grantId}::uuid FOR UPDATE`;
}

/** The token that replaced this one; the chain's current token only if it has not been rotated itself. */
export function childOf(tx: Tx, tokenId: string) {
  return tx.oAuthRefreshToken.findUnique({ where: { parentId: tokenId } });
}
