import { randomToken, sha256Hex } from "@/lib/crypto";
import { env } from "@/lib/env";

/** An invitation link works for 14 days; a re-invitation sends a new link. */
export const INVITATION_DAYS = 14;

/** A new token (only ever in the email) and the hash that is stored. */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomToken(32);
  return { token, tokenHash: sha256Hex(token) };
}

export function invitationTokenHash(token: string): string {
  return sha256Hex(token);
}

export function invitationUrl(token: string): string {
  return `${env().APP_URL}/invite/${token}`;
}
