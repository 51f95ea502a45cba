import { describe, expect, it } from "vitest";
import { isForeignOrigin } from "./foreign-origin";

const h = (init: Record<string, string>) => new Headers(init);

describe("isForeignOrigin", () => {
  it("accepts a POST from the page's own origin, directly or behind a proxy", () => {
    expect(isForeignOrigin(h({ origin: "http://localhost:3102", host: "localhost:3102" }))).toBe(false);
    expect(isForeignOrigin(h({ origin: "https://portal.firm.example", host: "10.0.0.5:3000", "x-forwarded-host": "portal.firm.example, lb" }))).toBe(false);
    expect(isForeignOrigin(h({ origin: "https://Portal.Firm.example", host: "portal.firm.example" }))).toBe(false);
  });

  it("lets a request without Origin through (no browser sends a cross-site POST without one)", () => {
    expect(isForeignOrigin(h({ host: "localhost:3102" }))).toBe(false);
  });

  it("refuses another site, another port, an opaque origin and a malformed one", () => {
    for (const origin of ["https://evil.example", "http://localhost:3103", "null", "not a url", "http://localhost:3102.evil.example"]) {
      expect(isForeignOrigin(h({ origin, host: "localhost:3102" })), origin).toBe(true);
    }
    expect(isForeignOrigin(h({ origin: "https://evil.example", host: "10.0.0.5", "x-forwarded-host": "portal.firm.example" }))).toBe(true);
    expect(isForeignOrigin(h({ origin: "https://evil.example" }))).toBe(true);
  });
});
