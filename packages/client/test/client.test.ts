import { Webhook } from "standardwebhooks";
import { db } from "@/lib/db";
import { describe, expect, it } from "vitest";
import { ApiError, OAuthError, refreshTokens, verifyWebhook, verifyWebhookSignature, WebhookVerificationError } from "../src";
import { baseUrl, clientFor, connect, loopback } from "./support";

// The typed client against the production build: the generated types drive real requests; OAuth
// refresh rotates; POSTs carry an Idempotency-Key; lists page through Link; 429 waits for
// Retry-After; deliveries verify with the helpers (and the reference library) across a rotation.

describe("OAuth", () => {
  it("calls the API with the exchanged token, refreshes after a 401 and hands over the rotated refresh token", async () => {
    const connection = await connect();
    const { client, rotations } = clientFor(connection, { tokens: { ...connection.tokens, accessToken: "expired-or-revoked" } });
    const { data, error, response } = await client.api.GET("/api/v1/me");
    expect([response.status, error]).toEqual([200, undefined]);
    expect(data!.scopes).toContain("portal:read");
    expect(rotations).toHaveLength(1);
    expect(rotations[0]!.refreshToken).not.toBe(connection.tokens.refreshToken);
    expect(client.tokens().accessToken).toBe(rotations[0]!.accessToken);

    // The replaced refresh token within the server's 60 s grace answers the chain's current tokens.
    const retried = await refreshTokens(connection.oauth, connection.tokens.refreshToken!);
    expect(retried.refreshToken).toBe(rotations[0]!.refreshToken);
    // A wrong secret is an OAuthError, not retried.
    await expect(refreshTokens({ ...connection.oauth, clientSecret: "wrong" }, rotations[0]!.refreshToken!)).rejects.toBeInstanceOf(OAuthError);
  });

  it("refreshes before an access token that is about to expire, once for concurrent requests", async () => {
    const connection = await connect();
    const { client, rotations } = clientFor(connection, { tokens: { ...connection.tokens, expiresAt: new Date(Date.now() + 1000) } });
    const answers = await Promise.all([1, 2, 3].map(() => client.api.GET("/api/v1/portals")));
    expect(answers.map((a) => a.response.status)).toEqual([200, 200, 200]);
    expect(rotations).toHaveLength(1);
  });
});

describe("requests", () => {
  it("sends an Idempotency-Key with every POST: a retried POST is answered once", async () => {
    const connection = await connect();
    const seen: Request[] = [];
    const { client } = clientFor(connection, { fetch: (r) => (seen.push(r.clone()), fetch(r)), idempotencyKey: () => "same-key-for-the-test" });
    const first = await client.api.POST("/api/v1/portals", { body: { name: "Smith & Co" } });
    const second = await client.api.POST("/api/v1/portals", { body: { name: "Smith & Co" } });
    expect([first.response.status, second.response.status]).toEqual([201, 201]);
    expect(second.data!.id).toBe(first.data!.id);
    expect(seen.map((r) => r.headers.get("idempotency-key"))).toEqual(["same-key-for-the-test", "same-key-for-the-test"]);
    const portals = [];
    for await (const p of client.paginate("/api/v1/portals", { query: {} })) portals.push(p);
    expect(portals.map((p) => p.name)).toEqual(["Smith & Co"]);
  });

  it("pages with Link as an async iterator, and throws ApiError for a refused page", async () => {
    const connection = await connect();
    const { client } = clientFor(connection);
    const { data: portal } = await client.api.POST("/api/v1/portals", { body: { name: "Guests" } });
    const invited = await client.api.POST("/api/v1/portals/{portalId}/guests", {
      params: { path: { portalId: portal!.id } },
      body: { emails: ["a@x.io", "b@x.io", "c@x.io"] },
    });
    expect(invited.data!.guests.map((g) => g.email)).toEqual(["a@x.io", "b@x.io", "c@x.io"]);
    const pages: string[] = [];
    const seen: Request[] = [];
    const { client: recording } = clientFor(connection, { tokens: client.tokens(), fetch: (r) => (seen.push(r.clone()), fetch(r)) });
    for await (const guest of recording.paginate("/api/v1/portals/{portalId}/guests", { path: { portalId: portal!.id }, query: { limit: 2 } })) {
      pages.push(guest.user_id);
    }
    // Guests invited together share their invitation time: the list orders them by id then.
    expect([...pages].sort()).toEqual(invited.data!.guests.map((g) => g.user_id).sort());
    expect(seen).toHaveLength(2);
    expect(new URL(seen[1]!.url).searchParams.get("cursor")).toBeTruthy();

    // The ids assign a task, through the typed PATCH.
    const task = await client.api.POST("/api/v1/portals/{portalId}/tasks", { params: { path: { portalId: portal!.id } }, body: { title: "Statements" } });
    const patched = await client.api.PATCH("/api/v1/tasks/{taskId}", {
      params: { path: { taskId: task.data!.task_id } },
      body: { assigned_guest_ids: [pages[1]!] },
    });
    expect(patched.response.status).toBe(200);
    const tasks = [];
    for await (const t of client.paginate("/api/v1/portals/{portalId}/tasks", { path: { portalId: portal!.id } })) tasks.push(t);
    const email = invited.data!.guests.find((g) => g.user_id === pages[1])!.email;
    expect(tasks[0]!.assignees.map((a) => [a.user_id, a.email])).toEqual([[pages[1], email]]);

    const missing = client.paginate("/api/v1/portals/{portalId}/guests", { path: { portalId: "00000000-0000-4000-8000-000000000000" } });
    const refused = await missing.next().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 404, error: "not_found" });
  });

  it("waits as Retry-After says on 429 and retries with the same Idempotency-Key", async () => {
    const connection = await connect();
    let refused = 0;
    const proxy = await loopback((req) => {
      if (req.method === "POST" && refused < 2) {
        refused++;
        return {
          status: 429,
          headers: { "Retry-After": "1", "Content-Type": "application/json" },
          body: '{"error":"rate_limit_exceeded","error_description":"slow down"}',
        };
      }
      return fetch(`${baseUrl()}${req.url}`, {
        method: req.method,
        headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k)) as [string, string][]),
        body: req.method === "GET" ? undefined : new Uint8Array(req.body),
      });
    });
    try {
      const waits: number[] = [];
      const { client } = clientFor(connection, { baseUrl: proxy.url, sleep: async (ms) => void waits.push(ms) });
      const res = await client.api.POST("/api/v1/portals", { body: { name: "After the limit" } });
      expect(res.response.status).toBe(201);
      expect(waits).toEqual([1000, 1000]);
      const keys = proxy.received.map((r) => r.headers["idempotency-key"]);
      expect(keys).toHaveLength(3);
      expect(new Set(keys).size).toBe(1);

      // Past maxRetries the 429 is the answer.
      refused = 0;
      const { client: impatient } = clientFor(connection, { baseUrl: proxy.url, maxRetries: 1, sleep: async () => undefined });
      const limited = await impatient.api.POST("/api/v1/portals", { body: { name: "Refused" } });
      expect([limited.response.status, limited.error]).toEqual([429, { error: "rate_limit_exceeded", error_description: "slow down" }]);
    } finally {
      await proxy.close();
    }
  });
});

describe("webhook verification", () => {
  it("verifies real deliveries before, during and after a secret rotation; refuses tampering and stale timestamps", async () => {
    const connection = await connect();
    const { client } = clientFor(connection);
    const receiver = await loopback(() => ({ status: 200 }));
    try {
      const created = await client.api.POST("/api/v1/webhooks", { body: { url: `${receiver.url}/hook`, events: ["guest.invited"] } });
      expect(created.response.status).toBe(201);
      const { webhook_id: webhookId, secret } = created.data!;
      const send = async () => {
        const sent = await client.api.POST("/api/v1/webhooks/{webhookId}/test", { params: { path: { webhookId } } });
        expect(sent.data!.success).toBe(true);
        return receiver.received.at(-1)!;
      };
      const verify = (s: string | string[], r: { body: Buffer; headers: Record<string, unknown> }) =>
        verifyWebhook({ secret: s, body: r.body, headers: r.headers as Record<string, string> });

      const before = await send();
      expect(await verify(secret, before)).toMatchObject({ event: "webhook.test", webhook_id: webhookId });
      expect(await verifyWebhookSignature({ secret, body: before.body, headers: before.headers as Record<string, string> })).toBe(true);
      // The reference library agrees, with the secret as raw key bytes.
      expect(new Webhook(secret, { format: "raw" }).verify(before.body.toString(), before.headers as Record<string, string>)).toMatchObject({
        event: "webhook.test",
      });

      const rotated = await client.api.POST("/api/v1/webhooks/{webhookId}/rotate-secret", { params: { path: { webhookId } } });
      const fresh = rotated.data!.secret;
      const during = await send();
      expect(await verify(fresh, during)).toMatchObject({ event: "webhook.test" });
      expect(await verify(secret, during)).toMatchObject({ event: "webhook.test" });
      expect(await verifyWebhookSignature({ secret, body: during.body, headers: during.headers as Record<string, string> })).toBe(true);

      const tampered = { ...during, body: Buffer.from(during.body.toString().replace("webhook.test", "webhook.tset")) };
      await expect(verify(fresh, tampered)).rejects.toBeInstanceOf(WebhookVerificationError);
      expect(await verifyWebhookSignature({ secret: fresh, body: tampered.body, headers: tampered.headers as Record<string, string> })).toBe(false);
      await expect(
        verifyWebhook({ secret: fresh, body: during.body, headers: during.headers as Record<string, string>, now: new Date(Date.now() + 600_000) }),
      ).rejects.toThrow("Message timestamp too old");
      await expect(verify("whsec_someone-else", during)).rejects.toThrow("No matching signature found");

      // After the grace period only the new secret signs.
      await db.webhook.update({ where: { id: webhookId }, data: { previousSecretExpiresAt: new Date(Date.now() - 1000) } });
      const after = await send();
      expect(await verify(fresh, after)).toMatchObject({ event: "webhook.test" });
      await expect(verify(secret, after)).rejects.toThrow("No matching signature found");
      expect(await verifyWebhookSignature({ secret, body: after.body, headers: after.headers as Record<string, string> })).toBe(false);
    } finally {
      await receiver.close();
    }
  });
});
