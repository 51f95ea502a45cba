import { createHash } from "node:crypto";
import { safeEqual } from "@/lib/crypto";
import { invalidGrant, oauthInvalidRequest } from "@/lib/oauth/token/errors";

// PKCE at the token endpoint (RFC 7636 4.6; only S256 is issued, see lib/oauth/authorize.ts).

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface PkceBinding {
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
}

export function s256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/** Throws unless the verifier proves possession of the code's challenge. */
export function checkPkce(code: PkceBinding, verifier: string | undefined): void {
  if (code.codeChallenge === null) {
    // RFC 9700 4.8.2: a verifier for a code issued without a challenge is a PKCE downgrade attempt.
    if (verifier !== undefined) throw invalidGrant("code_verifier was sent but the authorization request had no code_challenge");
    return;
  }
  if (verifier === undefined) throw invalidGrant("code_verifier is required: the authorization request had a code_challenge");
  if (!VERIFIER.test(verifier)) throw oauthInvalidRequest("code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~");
  if (code.codeChallengeMethod !== "S256" || !safeEqual(s256Challenge(verifier), code.codeChallenge)) {
    throw invalidGrant("code_verifier does not match the code_challenge");
  }
}
