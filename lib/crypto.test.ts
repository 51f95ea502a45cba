import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decrypt, encrypt, randomToken, safeEqual, sha256Hex } from "./crypto";

const key = randomBytes(32);

describe("encrypt/decrypt", () => {
  it("round-trips non-ASCII text and never repeats a ciphertext", () => {
    const a = encrypt("sécret ✓", key);
    const b = encrypt("sécret ✓", key);
    expect(a).not.toBe(b);
    expect(a).not.toContain("sécret");
    expect(decrypt(a, key)).toBe("sécret ✓");
  });

  it("refuses a tampered value and a wrong key", () => {
    const sealed = encrypt("hello", key);
    const parts = sealed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    parts[3] = body.toString("base64url");
    expect(() => decrypt(parts.join("."), key)).toThrow();
    expect(() => decrypt(sealed, randomBytes(32))).toThrow();
    expect(() => decrypt("garbage", key)).toThrow(/Unrecognised/);
  });
});

describe("tokens and hashes", () => {
  it("hashes to lowercase hex and makes distinct prefixed tokens", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const t = randomToken(32, "cps_");
    expect(t.startsWith("cps_")).toBe(true);
    expect(t.length).toBe(4 + 43);
    expect(randomToken()).not.toBe(randomToken());
  });

  it("compares in constant time and handles different lengths", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});
