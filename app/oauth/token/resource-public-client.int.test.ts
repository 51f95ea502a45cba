import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { verifyAccessTokenClaims } from "@/lib/oauth/access-token";
import { rotateClientSecret } from "@/lib/oauth/clients/manage-client";
import { checkAuthorizeRequest, issueAuthorizationCode } from "@/lib/oauth/authorize";
import { registerPublicClient } from "@/lib/oauth/clients/dynamic";
import { apiResource, mcpResource } from "@/lib/oauth/resource";
import { s256Challenge } from "@/lib/oauth/token/pkce";
import { createTestOrg, createTestUser } from "@/lib/test-support/fixtures";
import { createOAuthSetup, creds, issueCode, postToken, REDIRECT_URI } from "@/test/oauth/token-helpers";

// RFC 8707 resource indicators and public (dynamically registered) clients at authorize and token.

const VERIFIER = "v".repeat(43);

async function publicSetup() {
  const org = await createTestOrg();
  const user = await createTestUser({ orgId: org.id });
  const registered = await registerPublicClient({ redirect_uris: [REDIRECT_URI], client_name: "Assistant" });
  return { org, user, clientId: registered.client_id };
}

const authorize = (clientId: string, extra: Record<string, string> = {}) =>
  checkAuthorizeRequest({ client_id: clientId, response_type: "code", redirect_uri: REDIRECT_URI, state: "s", ...extra });

describe("resource indicators and public clients", () => {
  it("refuses an unknown resource at authorize (invalid_target, to the redirect URI) and accepts both known ones", async () => {
    const setup = await createOAuthSetup();
    expect(await authorize(setup.client.clientId, { resource: "https://elsewhere.example/mcp" })).toMatchObject({
      kind: "redirect_error",
      error: "invalid_target",
    });
    expect(await authorize(setup.client.clientId, { resource: `${mcpResource()}/` })).toMatchObject({ kind: "ok", request: { resource: mcpResource() } });
    expect(await authorize(setup.client.clientId, { resource: apiResource() })).toMatchObject({ kind: "ok", request: { resource: apiResource() } });
    expect(await authorize(setup.client.clientId)).toMatchObject({ kind: "ok", request: { resource: null } });
  });

  it("binds a confidential client's token to the resource, and refuses a different one at the token endpoint", async () => {
    const setup = await createOAuthSetup();
    const check = await authorize(setup.client.clientId, { resource: mcpResource() });
    if (check.kind !== "ok") throw new Error("refused");
    const code = await issueAuthorizationCode({ request: check.request, userId: setup.user.id, approvedScopes: check.request.scopes });
    const mismatch = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, resource: apiResource(), ...creds(setup) });
    expect(mismatch).toMatchObject({ status: 400, body: { error: "invalid_target" } });
    const ok = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, resource: mcpResource(), ...creds(setup) });
    expect(ok.status).toBe(200);
    const token = ok.body["access_token"] as string;
    await expect(verifyAccessTokenClaims(token, mcpResource())).resolves.toMatchObject({ userId: setup.user.id });
    await expect(verifyAccessTokenClaims(token)).rejects.toThrow("The access token is invalid");
  });

  it("keeps the contract's answer for a confidential client without credentials", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup);
    const result = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: setup.client.clientId });
    expect(result).toMatchObject({
      status: 401,
      body: { error: "invalid_client", error_description: "Client authentication is required: HTTP Basic, or client_id and client_secret in the body" },
    });
  });

  it("requires PKCE of a public client, and gives it tokens by client_id and verifier once approved", async () => {
    const { org, user, clientId } = await publicSetup();
    expect(await authorize(clientId)).toMatchObject({
      kind: "redirect_error",
      error: "invalid_request",
      description: expect.stringContaining("code_challenge is required"),
    });
    // Before approval it belongs to no organization: no tokens.
    const early = await postToken({ grant_type: "authorization_code", code: "x", redirect_uri: REDIRECT_URI, client_id: clientId });
    expect(early).toMatchObject({ status: 401, body: { error: "invalid_client" } });

    const check = await authorize(clientId, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
    if (check.kind !== "ok") throw new Error("refused");
    const code = await issueAuthorizationCode({ request: check.request, userId: user.id, approvedScopes: ["portal:read"] });
    const noVerifier = await postToken({ grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, client_id: clientId });
    expect(noVerifier).toMatchObject({ status: 400, body: { error: "invalid_grant" } });
    const code2 = await issueAuthorizationCode({ request: check.request, userId: user.id, approvedScopes: ["portal:read"] });
    const ok = await postToken({ grant_type: "authorization_code", code: code2, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: VERIFIER });
    expect(ok).toMatchObject({ status: 200, body: { scope: "portal:read" } });
    await expect(verifyAccessTokenClaims(ok.body["access_token"] as string)).resolves.toMatchObject({ orgId: org.id, userId: user.id });
    // Now a client of the organization under API settings, without a secret to rotate.
    const admin = await createTestUser({ orgId: org.id, role: "admin" });
    const { id } = await db.oAuthClient.findUniqueOrThrow({ where: { clientId }, select: { id: true } });
    await expect(rotateClientSecret({ viewer: await getUserViewer(admin.id, org.id), id })).rejects.toThrow(/public .* no secret to rotate/);
  });

  it("does not let a member of several organizations be the first to approve a registered client", async () => {
    const { clientId } = await publicSetup();
    const a = await createTestOrg();
    const b = await createTestOrg();
    const user = await createTestUser({ orgId: a.id });
    await db.membership.create({ data: { orgId: b.id, userId: user.id, role: "member" } });
    const check = await authorize(clientId, { code_challenge: s256Challenge(VERIFIER), code_challenge_method: "S256" });
    if (check.kind !== "ok") throw new Error("refused");
    await expect(issueAuthorizationCode({ request: check.request, userId: user.id, approvedScopes: ["portal:read"] })).rejects.toThrow(/Only members of/);
    expect((await db.oAuthClient.findUniqueOrThrow({ where: { clientId } })).orgId).toBeNull();
  });
});
