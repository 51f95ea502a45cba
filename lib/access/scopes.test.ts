import { describe, expect, it } from "vitest";
import { ALL_SCOPES, formatScopes, parseScopeString } from "./scopes";

describe("scopes", () => {
  it("has the eight scopes of the spec", () => {
    expect(ALL_SCOPES).toEqual(["portal:read", "portal:write", "file:list", "file:upload", "task:read", "task:write", "guest:invite", "webhook:manage"]);
  });

  it("parses space-separated scopes, collapsing duplicates and reporting unknown ones", () => {
    expect(parseScopeString("task:read portal:read  task:read")).toEqual({ scopes: ["portal:read", "task:read"], unknown: [] });
    expect(parseScopeString("portal:read admin")).toEqual({ scopes: ["portal:read"], unknown: ["admin"] });
    expect(parseScopeString(undefined)).toEqual({ scopes: [], unknown: [] });
  });

  it("formats in a stable order", () => {
    expect(formatScopes(["webhook:manage", "portal:read"])).toBe("portal:read webhook:manage");
  });
});
