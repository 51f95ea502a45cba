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

/** The latest descendant of a token: the one refresh token of the chain not yet rotated. */
export async function currentOfChain(tx: Tx, tokenId: string) {
  let current = await tx.oAuthRefreshToken.findUnique({ where: { parentId: tokenId } });
  // Each hop is one rotation; only the few made within the grace window are ever walked.
  while (current?.rotatedAt) {
    current = await tx.oAuthRefreshToken.findUnique({ where: { parentId: current.id } });
  }
  return current;
}
