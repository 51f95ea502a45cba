import { describe, expect, it } from "vitest";
import { clientIpOf, resolveClientIp } from "./client-ip";

describe("the client's address", () => {
  it("is the socket's peer when no proxy is trusted, whatever X-Forwarded-For claims", () => {
    expect(resolveClientIp("203.0.113.5", "198.51.100.1", 0)).toBe("203.0.113.5");
  });

  it("behind trusted proxies, is the entry the outermost trusted proxy added", () => {
    // client (spoofs 1.2.3.4) -> proxy A (appends the client's real address) -> proxy B -> app
    expect(resolveClientIp("10.0.0.2", "1.2.3.4, 203.0.113.5, 10.0.0.1", 2)).toBe("203.0.113.5");
    expect(resolveClientIp("10.0.0.2", "203.0.113.5", 1)).toBe("203.0.113.5");
    expect(resolveClientIp("10.0.0.2", undefined, 1)).toBe("10.0.0.2");
  });

  it("is read from the header the server sets, then X-Forwarded-For (next dev), cut to 64 characters", () => {
    expect(clientIpOf(new Headers({ "x-client-ip": "203.0.113.5", "x-forwarded-for": "1.2.3.4" }))).toBe("203.0.113.5");
    expect(clientIpOf(new Headers({ "x-forwarded-for": "198.51.100.1, 10.0.0.1" }))).toBe("198.51.100.1");
    expect(clientIpOf(new Headers())).toBe("");
    expect(clientIpOf(new Headers({ "x-client-ip": "a".repeat(100) }))).toHaveLength(64);
  });
});
