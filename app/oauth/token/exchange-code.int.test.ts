import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/lib/crypto";
import { db } from "@/lib/db";
import { verifyAccessToken } from "@/lib/oauth/access-token";
import { s256Challenge } from "@/lib/oauth/token/pkce";
import { refreshTokenHash } from "@/lib/oauth/token/refresh-token-value";
import { basicAuth, createOAuthSetup, creds, issueCode, postToken, REDIRECT_URI } from "@/test/oauth/token-helpers";

const VERIFIER = "verifier-0123456789-abcdefghijklmnopqrstuvwxyz-ABCDEF";

describe("POST /oauth/token, authorization_code", () => {
  it("exchanges a code (form body, secret in the body) for an access token, a refresh token and the approved scopes", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup, { scopes: ["task:read", "portal:read"] });
    const res = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(setup) });

    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "portal:read task:read" });
    const verified = await verifyAccessToken(res.body.access_token as string);
    expect(verified).toMatchObject({ userId: setup.user.id, orgId: setup.org.id, clientId: setup.client.clientId, scopes: ["portal:read", "task:read"] });

    const row = await db.oAuthAuthorizationCode.findUniqueOrThrow({ where: { codeHash: sha256Hex(code) } });
    expect(row.consumedAt).not.toBeNull();
    expect(row.grantId).toBe(verified.grantId);
    const refresh = await db.oAuthRefreshToken.findUniqueOrThrow({ where: { tokenHash: refreshTokenHash(res.body.refresh_token as string) } });
    expect(refresh).toMatchObject({ grantId: verified.grantId, parentId: null, rotatedAt: null, scopes: ["portal:read", "task:read"] });
    const days = (refresh.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
  });

  it("accepts a JSON body with HTTP Basic client authentication", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup);
    const res = await postToken(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI },
      { json: true, headers: { authorization: basicAuth(setup.client.clientId, setup.secret) } },
    );
    expect(res.status).toBe(200);
    expect(typeof res.body.access_token).toBe("string");
  });

  it("requires the redirect_uri of the authorization request exactly (a trailing slash is another URI)", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup);
    const res = await postToken({ grant_type: "authorization_code", code, redirect_uri: `${REDIRECT_URI}/`, ...creds(setup) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("invalid_grant");
    // The failed attempt did not use the code up.
    expect((await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(setup) })).status).toBe(200);
  });

  it("refuses a replayed code and revokes the tokens of its first exchange", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup);
    const params = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(setup) };
    const first = await postToken(params);
    expect(first.status).toBe(200);
    await expect(verifyAccessToken(first.body.access_token as string)).resolves.toBeDefined();

    const replay = await postToken(params);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");
    await expect(verifyAccessToken(first.body.access_token as string)).rejects.toMatchObject({ code: "invalid_token" });
    const refresh = await postToken({ grant_type: "refresh_token", refresh_token: first.body.refresh_token as string, ...creds(setup) });
    expect(refresh.body.error).toBe("invalid_grant");
    const row = await db.oAuthAuthorizationCode.findUniqueOrThrow({ where: { codeHash: sha256Hex(code) }, include: { grant: true } });
    expect(row.grant?.revokedReason).toBe("authorization_code_replay");
  });

  it("lets only one of concurrent exchanges of a code through, and the replays revoke it", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup);
    const params = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(setup) };
    const results = await Promise.all(Array.from({ length: 5 }, () => postToken(params)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400 && r.body.error === "invalid_grant")).toHaveLength(4);
    expect(await db.oAuthGrant.count({ where: { clientId: setup.client.id } })).toBe(1);
    const winner = results.find((r) => r.status === 200);
    await expect(verifyAccessToken(winner?.body.access_token as string)).rejects.toMatchObject({ code: "invalid_token" });
  });

  it("refuses an expired code", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup);
    await db.oAuthAuthorizationCode.update({ where: { codeHash: sha256Hex(code) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(setup) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/expired/) });
  });

  it("refuses an unknown code and a code issued to another client", async () => {
    const setup = await createOAuthSetup();
    const other = await createOAuthSetup();
    const code = await issueCode(other);
    for (const c of ["no-such-code", code]) {
      const res = await postToken({ grant_type: "authorization_code", code: c, redirect_uri: REDIRECT_URI, ...creds(setup) });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe("invalid_grant");
    }
    // The rightful client can still use it.
    expect((await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(other) })).status).toBe(200);
  });

  describe("PKCE", () => {
    it("accepts the matching code_verifier", async () => {
      const setup = await createOAuthSetup();
      const code = await issueCode(setup, { codeChallenge: s256Challenge(VERIFIER) });
      const res = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER, ...creds(setup) });
      expect(res.status).toBe(200);
    });

    it("refuses a wrong or missing code_verifier with invalid_grant", async () => {
      const setup = await createOAuthSetup();
      const code = await issueCode(setup, { codeChallenge: s256Challenge(VERIFIER) });
      const base = { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(setup) };
      const wrong = await postToken({ ...base, code_verifier: `${VERIFIER}x` });
      expect([wrong.status, wrong.body.error]).toEqual([400, "invalid_grant"]);
      const missing = await postToken(base);
      expect([missing.status, missing.body.error]).toEqual([400, "invalid_grant"]);
      expect(missing.body.error_description).toMatch(/code_verifier/);
    });

    it("refuses a code_verifier for a code issued without a challenge (downgrade)", async () => {
      const setup = await createOAuthSetup();
      const code = await issueCode(setup);
      const res = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: VERIFIER, ...creds(setup) });
      expect([res.status, res.body.error]).toEqual([400, "invalid_grant"]);
    });
  });
});
