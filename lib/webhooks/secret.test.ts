import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { newWebhookSecret, signatureHeaders, signStandardWebhook, signWebhookBody } from "./secret";

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

  it("signs Standard Webhooks style with the same key bytes, as the reference library does with the secret as raw bytes", () => {
    const secret = newWebhookSecret();
    const body = '{"event":"webhook.test","name":"Zoë"}';
    const at = new Date("2026-11-25T05:00:00.900Z");
    const library = new Webhook(secret, { format: "raw" }).sign("msg_1", at, body);
    expect(signStandardWebhook(secret, "msg_1", 1_795_582_800, body)).toBe(library);
    expect(signStandardWebhook(secret, "msg_1", 1_795_582_800, Buffer.from(body))).toBe(library);
  });

  it("puts the previous secret's signatures beside the current one's during a grace period", () => {
    const body = Buffer.from("{}");
    const sentAt = new Date("2026-11-25T05:00:00Z");
    const one = signatureHeaders({ secret: "whsec_new", deliveryId: "d1", sentAt, body });
    expect(Object.keys(one)).toEqual(["X-Webhook-Signature", "webhook-id", "webhook-timestamp", "webhook-signature"]);
    expect(one["webhook-timestamp"]).toBe("1795582800");
    const two = signatureHeaders({ secret: "whsec_new", previousSecret: "whsec_old", deliveryId: "d1", sentAt, body });
    expect(two["X-Webhook-Signature"]).toBe(signWebhookBody("whsec_new", body));
    expect(two["X-Webhook-Signature-Previous"]).toBe(signWebhookBody("whsec_old", body));
    expect(two["webhook-signature"]).toBe(
      `${signStandardWebhook("whsec_new", "d1", 1795582800, body)} ${signStandardWebhook("whsec_old", "d1", 1795582800, body)}`,
    );
  });
});
