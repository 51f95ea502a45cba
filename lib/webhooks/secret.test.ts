import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signWebhookBody } from "./secret";

describe("webhook secrets and signatures", () => {
  it("makes whsec_ secrets of 32 random bytes", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(6), "base64url")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it("signs with lowercase hex HMAC-SHA256 keyed with the secret's UTF-8 bytes, prefix included", () => {
    // RFC 4231 test case 2: key "Jefe".
    expect(signWebhookBody("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    const body = Buffer.from('{"name":"Zoë 日本"}', "utf8");
    expect(signWebhookBody("whsec_é", body)).toBe(createHmac("sha256", Buffer.from("whsec_é", "utf8")).update(body).digest("hex"));
    expect(signWebhookBody("whsec_é", body)).toBe(signWebhookBody("whsec_é", body.toString("utf8")));
  });
});
