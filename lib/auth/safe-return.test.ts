import { describe, expect, it } from "vitest";
import { MAX_RETURN_PATH, safeReturnPath, signInPath } from "./safe-return";

const APP = "http://localhost:3000";
const safe = (value: unknown) => safeReturnPath(value, APP);

describe("safeReturnPath", () => {
  it("keeps same-site paths with their query and fragment", () => {
    expect(safe("/org/1/vault/2/folder/main?file=3")).toBe("/org/1/vault/2/folder/main?file=3");
    expect(safe("/oauth/authorize?client_id=a&scope=portal%3Aread")).toBe("/oauth/authorize?client_id=a&scope=portal%3Aread");
    expect(safe("/org/1#tasks")).toBe("/org/1#tasks");
    expect(safe("/")).toBe("/");
  });

  it("accepts an absolute URL of the app's own origin as its path", () => {
    expect(safe("http://localhost:3000/org/1?x=1")).toBe("/org/1?x=1");
  });

  it("refuses other sites however they are spelled", () => {
    const bad: unknown[] = [
      "https://evil.example",
      "http://localhost:3001/org",
      "http://localhost:3000@evil.example/",
      "//evil.example",
      "///evil.example",
      "/\\evil.example",
      "\\\\evil.example",
      "\\/evil.example",
      "/\t/evil.example/",
      "/\t\\evil.example/",
      "/\n/evil.example/",
      "/\r/evil.example/",
      "/\r\n/evil.example/",
      "\t//evil.example",
      " //evil.example",
      "/\\\tevil.example",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "mailto:a@evil.example",
      "evil.example",
      "",
      undefined,
      null,
      42,
      ["/org"],
    ];
    for (const value of bad) {
      expect(safe(value), JSON.stringify(value)).toBe("/");
    }
  });

  it("keeps percent-encoded forms encoded, so they stay paths of this site", () => {
    // "%2F%09%2F" arrives decoded once (as "/\t/") from the query; a value still encoded after that
    // is a path segment, and the browser does not decode it into a host.
    for (const value of ["/%09/evil.example/", "/%0A/evil.example", "/%5C/evil.example", "/%2F/evil.example", "/%2F%2Fevil.example"]) {
      const result = safe(value);
      expect(result, value).toBe(value);
      expect(new URL(result, APP).host).toBe("localhost:3000");
    }
  });

  it("never returns control characters or backslashes", () => {
    for (const value of ["/a\tb", "/a\nb", "/a\rb", "/a\\b", "/a b", "/a\u0000b"]) {
      expect(safe(value), JSON.stringify(value)).not.toMatch(/[\u0000-\u001f\\ ]/);
    }
  });

  it("refuses paths outside a base path when the app is served under one", () => {
    expect(safeReturnPath("/other", "https://firm.example/portals")).toBe("/");
    expect(safeReturnPath("/portals/org/1", "https://firm.example/portals")).toBe("/portals/org/1");
  });
});

describe("signInPath", () => {
  it("comes back to the path it is given, encoded once, after sign-in's own parameters", () => {
    expect(signInPath("/org/1?tab=files")).toBe("/sign-in?callbackUrl=%2Forg%2F1%3Ftab%3Dfiles");
    expect(signInPath("/org/1", { error: "passkey" })).toBe("/sign-in?error=passkey&callbackUrl=%2Forg%2F1");
  });

  it("leaves out a return path longer than sign-in accepts, which would take the user home anyway", () => {
    const longest = `/oauth/consent?state=${"s".repeat(MAX_RETURN_PATH - "/oauth/consent?state=".length)}`;
    expect(safe(longest)).toBe(longest);
    expect(signInPath(longest)).toBe(`/sign-in?callbackUrl=${encodeURIComponent(longest)}`);
    const tooLong = `${longest}s`;
    expect(safe(tooLong)).toBe("/");
    expect(signInPath(tooLong)).toBe("/sign-in");
    expect(signInPath(tooLong, { error: "throttled" })).toBe("/sign-in?error=throttled");
  });
});
