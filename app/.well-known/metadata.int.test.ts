import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from "jose";
import { describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { tokenAudience, verifyAccessToken } from "@/lib/oauth/access-token";
import { db } from "@/lib/db";
import { findPublicKey, retireExpiredSigningKeys, rotateSigningKey } from "@/lib/oauth/signing-keys";
import { createOAuthSetup, obtainTokens } from "@/test/oauth/token-helpers";
import { GET as getJwks } from "@/app/.well-known/jwks.json/route";
import { GET as getMetadata } from "@/app/.well-known/oauth-authorization-server/route";

// Discovery (RFC 8414) and the JWKS, through the route handlers.

async function jwks(): Promise<JSONWebKeySet> {
  const res = await getJwks();
  expect(res.status).toBe(200);
  return (await res.json()) as JSONWebKeySet;
}

describe("/.well-known", () => {
  it("publishes authorization server metadata", async () => {
    const res = getMetadata();
    const { API_URL, APP_URL } = env();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      issuer: API_URL,
      authorization_endpoint: `${APP_URL}/oauth/authorize`,
      token_endpoint: `${API_URL}/oauth/token`,
      revocation_endpoint: `${API_URL}/oauth/revoke`,
      registration_endpoint: `${API_URL}/oauth/register`,
      jwks_uri: `${API_URL}/.well-known/jwks.json`,
      scopes_supported: ["portal:read", "portal:write", "file:list", "file:upload", "task:read", "task:write", "guest:invite", "webhook:manage"],
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
    });
  });

  it("publishes public keys only, and an issued token verifies against them", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    const set = await jwks();
    for (const key of set.keys) {
      expect(key).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig", kid: expect.any(String) });
      expect(key).not.toHaveProperty("d");
    }
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, createLocalJWKSet(set), { issuer: env().API_URL, audience: tokenAudience() });
    expect(protectedHeader).toMatchObject({ alg: "ES256", typ: "at+jwt" });
    expect(payload).toMatchObject({ sub: setup.user.id, client_id: setup.client.clientId, org_id: setup.org.id, scope: tokens.scope });
    expect(payload).toHaveProperty("grant_id");
    expect(payload).toHaveProperty("jti");
    expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(3600);
  });

  it("keeps tokens of the previous key verifiable after a rotation, and signs new ones with the new key", async () => {
    const setup = await createOAuthSetup();
    const before = await obtainTokens(setup);
    const newKid = await rotateSigningKey();
    const after = await obtainTokens(setup);

    expect(decodeProtectedHeader(after.access_token).kid).toBe(newKid);
    expect(decodeProtectedHeader(before.access_token).kid).not.toBe(newKid);
    const set = await jwks();
    expect(set.keys.map((k) => k.kid)).toEqual(expect.arrayContaining([newKid, decodeProtectedHeader(before.access_token).kid]));
    for (const token of [before.access_token, after.access_token]) {
      await expect(verifyAccessToken(token)).resolves.toMatchObject({ userId: setup.user.id });
      await expect(jwtVerify(token, createLocalJWKSet(set))).resolves.toBeDefined();
    }
  });

  it("imports each public key once per process: verifying again reuses the imported key", async () => {
    const setup = await createOAuthSetup();
    const { access_token } = await obtainTokens(setup);
    const kid = decodeProtectedHeader(access_token).kid ?? "";
    await verifyAccessToken(access_token);
    const key = await findPublicKey(kid);
    expect(key).not.toBeNull();
    await verifyAccessToken(access_token);
    expect(await findPublicKey(kid)).toBe(key);
  });

  it("a rotated-out key verifies while retiring and is refused once retired, though its import was cached", async () => {
    const setup = await createOAuthSetup();
    const oldKid = await rotateSigningKey();
    const old = await obtainTokens(setup);
    expect(decodeProtectedHeader(old.access_token).kid).toBe(oldKid);
    await expect(verifyAccessToken(old.access_token)).resolves.toMatchObject({ userId: setup.user.id });

    const newKid = await rotateSigningKey();
    const current = await obtainTokens(setup);
    await expect(verifyAccessToken(old.access_token)).resolves.toMatchObject({ userId: setup.user.id });

    await db.signingKey.update({ where: { id: oldKid }, data: { retiredAt: new Date(Date.now() - 2 * 3600_000) } });
    expect(await retireExpiredSigningKeys()).toBeGreaterThanOrEqual(1);
    await expect(verifyAccessToken(old.access_token)).rejects.toMatchObject({ code: "invalid_token" });
    expect(await findPublicKey(oldKid)).toBeNull();
    expect(decodeProtectedHeader(current.access_token).kid).toBe(newKid);
    await expect(verifyAccessToken(current.access_token)).resolves.toMatchObject({ userId: setup.user.id });
  });
});
