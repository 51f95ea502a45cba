import { generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { issueAccessToken, tokenAudience, tokenIssuer, verifyAccessTokenClaims } from "@/lib/oauth/access-token";
import { getActiveSigningKey } from "@/lib/oauth/signing-keys";

// verifyAccessTokenClaims verifies with node:crypto; these are the checks jose's
// jwtVerify made, token by token, with the answers they gave.

const subject = {
  grantId: crypto.randomUUID(),
  userId: crypto.randomUUID(),
  orgId: crypto.randomUUID(),
  clientId: "cpc_test",
  scopes: ["portal:read", "task:read"] as const,
};

async function signed(claims: JWTPayload = {}, header: Record<string, unknown> = {}) {
  const key = await getActiveSigningKey();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    client_id: "cpc_test",
    org_id: subject.orgId,
    scope: "portal:read",
    grant_id: subject.grantId,
    iss: tokenIssuer(),
    sub: subject.userId,
    aud: tokenAudience(),
    iat: now,
    exp: now + 60,
    jti: "j",
    ...claims,
  })
    .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "at+jwt", ...header })
    .sign(key.privateKey);
}

const messageOf = (token: string) =>
  verifyAccessTokenClaims(token).then(
    () => "ok",
    (e: Error) => e.message,
  );

describe("verifyAccessTokenClaims", () => {
  it("accepts what issueAccessToken signs, with its claims", async () => {
    const { token } = await issueAccessToken({ ...subject, scopes: [...subject.scopes] });
    const claims = await verifyAccessTokenClaims(token);
    expect(claims).toMatchObject({
      userId: subject.userId,
      orgId: subject.orgId,
      clientId: "cpc_test",
      grantId: subject.grantId,
      scopes: ["portal:read", "task:read"],
    });
    expect(claims.expiresAt.getTime() - Date.now()).toBeGreaterThan(3590_000);
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: "ES256", kid: (await getActiveSigningKey()).kid, typ: "at+jwt" });
    expect(Object.keys(payload ?? {})).toEqual(["client_id", "org_id", "scope", "grant_id", "iss", "sub", "aud", "iat", "exp", "jti"]);
  });

  it("accepts an audience array holding ours and the typ with its media-type prefix", async () => {
    expect(await messageOf(await signed({ aud: ["other", tokenAudience()] }))).toBe("ok");
    expect(await messageOf(await signed({}, { typ: "application/AT+JWT" }))).toBe("ok");
  });

  it("refuses with the messages of before", async () => {
    const good = await signed();
    const [h, p, s] = good.split(".") as [string, string, string];
    const tamperedPayload = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, "base64url").toString()), scope: "portal:write" })).toString("base64url");
    const other = await generateKeyPair("ES256");
    const foreign = await new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: (await getActiveSigningKey()).kid, typ: "at+jwt" }).sign(other.privateKey);
    const cases: [string, string][] = [
      ["not-a-jwt", "The access token is malformed"],
      [`${Buffer.from("[1]").toString("base64url")}.${p}.${s}`, "The access token is malformed"],
      [await signed({}, { kid: "unknown" }), "The access token is not signed by a known key"],
      [`${Buffer.from(JSON.stringify({ alg: "ES256", typ: "at+jwt" })).toString("base64url")}.${p}.${s}`, "The access token is not signed by a known key"],
      [`${h}.${tamperedPayload}.${s}`, "The access token is invalid"],
      [`${h}.${p}`, "The access token is malformed"],
      [`${h}.${p}.${s}.x`, "The access token is malformed"],
      [`${h}.${p}.${s}.x.y`, "The access token is invalid"],
      [`${h}.${p}.${s.slice(0, -4)}`, "The access token is invalid"],
      [foreign, "The access token is invalid"],
      [await signed({}, { typ: "JWT" }), "The access token is invalid"],
      [await signed({ iss: "https://elsewhere.example" }), "The access token is invalid"],
      [await signed({ aud: "https://elsewhere.example" }), "The access token is invalid"],
      [await signed({ iat: "yesterday" as unknown as number }), "The access token is invalid"],
      [await signed({ nbf: Math.floor(Date.now() / 1000) + 600 }), "The access token is invalid"],
      // Expiry is told apart only when everything else holds.
      [await signed({ exp: Math.floor(Date.now() / 1000) - 1 }), "The access token has expired"],
      [await signed({ exp: Math.floor(Date.now() / 1000) - 1, iss: "https://elsewhere.example" }), "The access token is invalid"],
      [await signed({ grant_id: undefined }), "The access token is missing claims"],
    ];
    for (const [token, message] of cases) expect([token, await messageOf(token)]).toEqual([token, message]);
    // An unsigned or HMAC token with our kid never verifies.
    const none = `${Buffer.from(JSON.stringify({ alg: "none", kid: (await getActiveSigningKey()).kid, typ: "at+jwt" })).toString("base64url")}.${p}.`;
    expect(await messageOf(none)).toBe("The access token is invalid");
    const hs = await new SignJWT({}).setProtectedHeader({ alg: "HS256", kid: (await getActiveSigningKey()).kid, typ: "at+jwt" }).sign(new Uint8Array(32));
    expect(await messageOf(hs)).toBe("The access token is invalid");
  });
});
