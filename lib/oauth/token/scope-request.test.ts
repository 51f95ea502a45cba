import { describe, expect, it } from "vitest";
import { OAuthError } from "./errors";
import { accessScopes, parseRequestedScope } from "./scope-request";

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    return e instanceof OAuthError ? e.error : "other";
  }
  return null;
};

describe("refresh scope", () => {
  const held = ["portal:read", "task:read", "task:write"];
  const allowed = ["portal:read", "task:read", "task:write", "file:list"] as const;

  it("keeps everything held when nothing is requested", () => {
    expect(accessScopes(held, undefined, [...allowed])).toEqual(["portal:read", "task:read", "task:write"]);
  });

  it("narrows to the requested part", () => {
    expect(accessScopes(held, parseRequestedScope("task:read"), [...allowed])).toEqual(["task:read"]);
  });

  it("refuses widening, unknown and empty scopes with invalid_scope", () => {
    expect(codeOf(() => accessScopes(held, parseRequestedScope("task:read file:list"), [...allowed]))).toBe("invalid_scope");
    expect(codeOf(() => parseRequestedScope("task:read admin"))).toBe("invalid_scope");
    expect(codeOf(() => parseRequestedScope("   "))).toBe("invalid_scope");
  });

  it("drops scopes the client is no longer allowed, and refuses when none is left", () => {
    expect(accessScopes(held, undefined, ["task:read"])).toEqual(["task:read"]);
    expect(codeOf(() => accessScopes(held, undefined, ["file:list"]))).toBe("invalid_scope");
  });
});
