import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { tokenAudience, tokenIssuer, verifyAccessToken } from "@/lib/oauth/access-token";
import { getActiveSigningKey } from "@/lib/oauth/signing-keys";
import { refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { basicAuth, createOAuthSetup, creds, obtainTokens, postRevoke, postToken } from "@/test/oauth/token-helpers";

// POST /oauth/revoke (RFC 7009).

const grantOf = async (refreshToken: string) =>
  db.oAuthGrant.findFirstOrThrow({ where: { refreshTokens: { some: { tokenHash: refreshTokenHash(refreshToken) } } } });

describe("POST /oauth/revoke", () => {
  it("revoking a refresh token revokes its grant: the chain and the access tokens stop working", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    const res = await postRevoke({ token: tokens.refresh_token, token_type_hint: "refresh_token", ...creds(setup) });

    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    await expect(verifyAccessToken(tokens.access_token)).rejects.toMatchObject({ code: "invalid_token" });
    expect((await postToken({ grant_type: "refresh_token", refresh_token: tokens.refresh_token, ...creds(setup) })).body.error).toBe("invalid_grant");
    expect(await grantOf(tokens.refresh_token)).toMatchObject({ revokedReason: "client_revoked" });
  });

  it("revoking an access token (HTTP Basic, JSON) revokes its grant", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    const res = await postRevoke({ token: tokens.access_token }, { json: true, headers: { authorization: basicAuth(setup.client.clientId, setup.secret) } });

    expect(res.status).toBe(200);
    await expect(verifyAccessToken(tokens.access_token)).rejects.toMatchObject({ code: "invalid_token" });
    expect((await grantOf(tokens.refresh_token)).revokedAt).not.toBeNull();
  });

  it("revoking an expired access token still ends its grant", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    const grant = await grantOf(tokens.refresh_token);
    const key = await getActiveSigningKey();
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ client_id: setup.client.clientId, org_id: setup.org.id, scope: tokens.scope, grant_id: grant.id })
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "at+jwt" })
      .setIssuer(tokenIssuer())
      .setAudience(tokenAudience())
      .setSubject(setup.user.id)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(key.privateKey);
    expect((await postRevoke({ token: expired, ...creds(setup) })).status).toBe(200);
    expect((await grantOf(tokens.refresh_token)).revokedAt).not.toBeNull();
  });

  it("answers 200 and revokes nothing for another client's token, an unknown token or a forged JWT", async () => {
    const setup = await createOAuthSetup();
    const other = await createOAuthSetup();
    const theirs = await obtainTokens(other);
    const forged = await new SignJWT({ grant_id: (await grantOf(theirs.refresh_token)).id, client_id: setup.client.clientId })
      .setProtectedHeader({ alg: "HS256", kid: "nope" })
      .sign(new Uint8Array(32));
    for (const token of [theirs.refresh_token, theirs.access_token, "unknown-token", forged]) {
      const res = await postRevoke({ token, ...creds(setup) });
      expect(res.status).toBe(200);
    }
    await expect(verifyAccessToken(theirs.access_token)).resolves.toBeDefined();
    expect((await grantOf(theirs.refresh_token)).revokedAt).toBeNull();
  });

  it("revoking twice is fine", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    expect((await postRevoke({ token: tokens.refresh_token, ...creds(setup) })).status).toBe(200);
    expect((await postRevoke({ token: tokens.access_token, ...creds(setup) })).status).toBe(200);
  });

  it("refuses a bad client with 401 invalid_client and a missing token with 400 invalid_request", async () => {
    const setup = await createOAuthSetup();
    const tokens = await obtainTokens(setup);
    const bad = await postRevoke({ token: tokens.refresh_token, client_id: setup.client.clientId, client_secret: "wrong" });
    expect([bad.status, bad.body.error]).toEqual([401, "invalid_client"]);
    expect(bad.headers.get("www-authenticate")).toMatch(/^Basic /);
    expect((await grantOf(tokens.refresh_token)).revokedAt).toBeNull();
    const missing = await postRevoke({ ...creds(setup) });
    expect([missing.status, missing.body.error]).toEqual([400, "invalid_request"]);
  });
});
