import { describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { POST } from "@/app/oauth/token/route";
import { basicAuth, createOAuthSetup, creds, issueCode, postToken, REDIRECT_URI } from "@/test/oauth/token-helpers";

// Request parsing, client authentication and error shapes of the token endpoint.

function expectOAuthError(res: { status: number; headers: Headers; body: Record<string, unknown> }, status: number, error: string) {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error, error_description: expect.any(String) });
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("pragma")).toBe("no-cache");
}

describe("POST /oauth/token, client authentication", () => {
  it("answers a wrong secret via HTTP Basic with 401 invalid_client and a Basic challenge", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup);
    const res = await postToken(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI },
      { headers: { authorization: basicAuth(setup.client.clientId, `${setup.secret}x`) } },
    );
    expectOAuthError(res, 401, "invalid_client");
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="client-portals"');
  });

  it("answers a wrong secret or an unknown client in the body with 401 invalid_client", async () => {
    const setup = await createOAuthSetup();
    for (const c of [
      { client_id: setup.client.clientId, client_secret: "wrong" },
      { client_id: "cpc_unknown", client_secret: setup.secret },
    ]) {
      const res = await postToken({ grant_type: "refresh_token", refresh_token: "x", ...c });
      expectOAuthError(res, 401, "invalid_client");
      expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
    }
  });

  it("requires client authentication (no secret is 401 invalid_client)", async () => {
    const setup = await createOAuthSetup();
    expectOAuthError(await postToken({ grant_type: "refresh_token", refresh_token: "x" }), 401, "invalid_client");
    expectOAuthError(await postToken({ grant_type: "refresh_token", refresh_token: "x", client_id: setup.client.clientId }), 401, "invalid_client");
  });

  it("refuses HTTP Basic and client_secret in the body together with 400 invalid_request", async () => {
    const setup = await createOAuthSetup();
    const code = await issueCode(setup);
    const res = await postToken(
      { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, ...creds(setup) },
      { headers: { authorization: basicAuth(setup.client.clientId, setup.secret) } },
    );
    expectOAuthError(res, 400, "invalid_request");
  });

  it("accepts a body client_id that repeats the Basic one, and refuses one that differs", async () => {
    const setup = await createOAuthSetup();
    const headers = { authorization: basicAuth(setup.client.clientId, setup.secret) };
    const same = await postToken(
      { grant_type: "authorization_code", code: await issueCode(setup), redirect_uri: REDIRECT_URI, client_id: setup.client.clientId },
      { headers },
    );
    expect(same.status).toBe(200);
    const differs = await postToken(
      { grant_type: "authorization_code", code: await issueCode(setup), redirect_uri: REDIRECT_URI, client_id: "cpc_other" },
      { headers },
    );
    expectOAuthError(differs, 400, "invalid_request");
  });

  it("refuses a malformed Authorization header with 401 invalid_client", async () => {
    for (const authorization of ["Basic !!!", "Basic " + Buffer.from("no-colon").toString("base64"), "Bearer abc"]) {
      const res = await postToken({ grant_type: "refresh_token", refresh_token: "x" }, { headers: { authorization } });
      expectOAuthError(res, 401, "invalid_client");
    }
  });
});

describe("POST /oauth/token, request format", () => {
  const post = (body: string, contentType: string) =>
    POST(new Request(`${env().API_URL}/oauth/token`, { method: "POST", headers: { "content-type": contentType }, body }));
  const read = async (response: Response) => ({ status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> });

  it("refuses other content types, malformed JSON and non-object JSON with invalid_request", async () => {
    expectOAuthError(await read(await post("grant_type=refresh_token", "text/plain")), 400, "invalid_request");
    expectOAuthError(await read(await post("{not json", "application/json")), 400, "invalid_request");
    expectOAuthError(await read(await post("[]", "application/json")), 400, "invalid_request");
  });

  it("refuses a known JSON field that is not a string, ignores unknown ones", async () => {
    const setup = await createOAuthSetup();
    const body = (extra: object) => JSON.stringify({ grant_type: "authorization_code", redirect_uri: REDIRECT_URI, ...creds(setup), ...extra });
    const wrongType = await read(await post(body({ code: 123 }), "application/json; charset=utf-8"));
    expectOAuthError(wrongType, 400, "invalid_request");
    expect(wrongType.body.error_description).toMatch(/code/);
    const ok = await read(await post(body({ code: await issueCode(setup), extra: { nested: true } }), "application/json"));
    expect(ok.status).toBe(200);
  });

  it("refuses a repeated form parameter", async () => {
    const res = await read(await post("grant_type=refresh_token&grant_type=authorization_code", "application/x-www-form-urlencoded"));
    expectOAuthError(res, 400, "invalid_request");
  });

  it("names a missing parameter", async () => {
    const setup = await createOAuthSetup();
    const noGrantType = await postToken({ ...creds(setup) });
    expectOAuthError(noGrantType, 400, "invalid_request");
    expect(noGrantType.body.error_description).toMatch(/grant_type/);
    const noCode = await postToken({ grant_type: "authorization_code", redirect_uri: REDIRECT_URI, ...creds(setup) });
    expect(noCode.body.error_description).toMatch(/code/);
    const noRedirect = await postToken({ grant_type: "authorization_code", code: "c", ...creds(setup) });
    expect(noRedirect.body.error_description).toMatch(/redirect_uri/);
    const noRefresh = await postToken({ grant_type: "refresh_token", ...creds(setup) });
    expect(noRefresh.body.error_description).toMatch(/refresh_token/);
  });

  it("answers other grant types with unsupported_grant_type", async () => {
    const setup = await createOAuthSetup();
    for (const grantType of ["client_credentials", "password", "toString"]) {
      expectOAuthError(await postToken({ grant_type: grantType, ...creds(setup) }), 400, "unsupported_grant_type");
    }
  });
});
