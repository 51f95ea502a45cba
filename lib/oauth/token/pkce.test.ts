import { describe, expect, it } from "vitest";
import { OAuthError } from "./errors";
import { checkPkce, s256Challenge } from "./pkce";

const codeOf = (verifier: string) => ({ codeChallenge: s256Challenge(verifier), codeChallengeMethod: "S256" });
const errorOf = (run: () => void) => {
  try {
    run();
  } catch (e) {
    return e instanceof OAuthError ? e.error : "other";
  }
  return null;
};

describe("PKCE", () => {
  const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

  it("computes the RFC 7636 appendix B challenge", () => {
    expect(s256Challenge(verifier)).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
  });

  it("accepts the matching verifier and refuses another one", () => {
    expect(errorOf(() => checkPkce(codeOf(verifier), verifier))).toBeNull();
    expect(errorOf(() => checkPkce(codeOf(verifier), `${verifier.slice(0, -1)}Y`))).toBe("invalid_grant");
  });

  it("requires the verifier when a challenge was sent, and refuses one when none was", () => {
    expect(errorOf(() => checkPkce(codeOf(verifier), undefined))).toBe("invalid_grant");
    expect(errorOf(() => checkPkce({ codeChallenge: null, codeChallengeMethod: null }, verifier))).toBe("invalid_grant");
    expect(errorOf(() => checkPkce({ codeChallenge: null, codeChallengeMethod: null }, undefined))).toBeNull();
  });

  it("refuses a malformed verifier as invalid_request", () => {
    expect(errorOf(() => checkPkce(codeOf(verifier), "short"))).toBe("invalid_request");
  });
});
