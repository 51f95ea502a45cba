import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { readBearerToken } from "./bearer";
import { parseJsonBody, readBody } from "./read-body";
import { requestIdOf } from "./request-id";

const req = (headers: Record<string, string>, body?: string) =>
  new Request("https://api.example/api/v1/me", { method: body === undefined ? "GET" : "POST", headers, body });

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error("did not throw");
}

describe("requestIdOf", () => {
  it("echoes a plain incoming id and replaces anything else", () => {
    expect(requestIdOf(req({ "X-Request-Id": "abc-123.x:y_z" }))).toBe("abc-123.x:y_z");
    expect(requestIdOf(req({ "X-Request-Id": "has space" }))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(req({ "X-Request-Id": "a".repeat(129) }))).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(req({}))).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("readBearerToken", () => {
  it("returns the token", () => {
    expect(readBearerToken(req({ Authorization: "Bearer abc.def-ghi_jkl" }))).toBe("abc.def-ghi_jkl");
    expect(readBearerToken(req({ Authorization: "bearer abc" }))).toBe("abc");
  });

  it("challenges without an error code when no credentials were sent (RFC 6750 §3.1)", () => {
    const e = thrown(() => readBearerToken(req({})));
    expect(isAppError(e) && e.status).toBe(401);
    expect(isAppError(e) && e.headers["WWW-Authenticate"]).toBe('Bearer realm="client-portals"');
  });

  it.each(["Basic dXNlcjpwYXNz", "Bearer", "Bearer a b"])("refuses %j as invalid_token", (value) => {
    const e = thrown(() => readBearerToken(req({ Authorization: value })));
    expect(isAppError(e) && e.code).toBe("invalid_token");
    expect(isAppError(e) && e.headers["WWW-Authenticate"]).toMatch(/^Bearer error="invalid_token"/);
  });
});

describe("readBody", () => {
  it("reads up to the limit and refuses one byte more, declared or not", async () => {
    await expect(readBody(req({}, "12345"), 5)).resolves.toBe("12345");
    await expect(readBody(req({ "Content-Length": "6" }, "123456"), 5)).rejects.toMatchObject({ code: "payload_too_large", status: 413 });
    const undeclared = new Request("https://api.example/x", {
      method: "POST",
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode("123"));
          c.enqueue(new TextEncoder().encode("456"));
          c.close();
        },
      }),
      duplex: "half",
    } as RequestInit & { duplex: "half" });
    await expect(readBody(undeclared, 5)).rejects.toMatchObject({ code: "payload_too_large" });
  });

  it("parses JSON, treats an empty body as {} and refuses malformed JSON", () => {
    expect(parseJsonBody(' {"a":1} ')).toEqual({ a: 1 });
    expect(parseJsonBody("")).toEqual({});
    expect(() => parseJsonBody("{a:")).toThrow("Malformed JSON body");
  });
});
