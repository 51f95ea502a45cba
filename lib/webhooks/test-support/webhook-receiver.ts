import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver on loopback for integration tests: records every request with its raw body
// bytes, answers as told (a status per request in turn, a redirect, or never), and counts TCP
// connections so a test can show that nothing was connected at all.

export type ReceivedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The exact bytes received. */
  body: Buffer;
  receivedAt: Date;
};

/** What to answer: a status, a redirect to a URL, or hang (never answer). */
type Reply = number | { redirect: string; status?: number } | "hang";

export type WebhookReceiver = {
  url: string;
  requests: ReceivedRequest[];
  /** TCP connections accepted, requests or not. */
  connections: number;
  /** Replies for the next requests in turn; after them, `fallback` (200). */
  reply(...replies: Reply[]): void;
  setFallback(reply: Reply): void;
  close(): Promise<void>;
};

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const queue: Reply[] = [];
  let fallback: Reply = 200;
  const hanging = new Set<ServerResponse>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      receiver.requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
        receivedAt: new Date(),
      });
      const reply = queue.length > 0 ? (queue.shift() as Reply) : fallback;
      if (reply === "hang") {
        hanging.add(res);
        return;
      }
      if (typeof reply === "object") {
        res.writeHead(reply.status ?? 302, { location: reply.redirect }).end();
        return;
      }
      res.writeHead(reply, { "content-type": "text/plain" }).end(`answered ${reply}`);
    });
  });
  server.on("connection", () => {
    receiver.connections += 1;
  });

  const receiver: WebhookReceiver = {
    url: "",
    requests: [],
    connections: 0,
    reply: (...replies) => {
      queue.push(...replies);
    },
    setFallback: (reply) => {
      fallback = reply;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const res of hanging) res.destroy();
        if (!server.listening) return resolve();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** How a receiver verifies a delivery (spec section 6): HMAC-SHA256 of the raw body, constant time. */
export function verifySignature(secret: string, request: ReceivedRequest): boolean {
  const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(request.body).digest("hex");
  const given = String(request.headers["x-webhook-signature"] ?? "");
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** The received body, parsed. */
export function bodyOf(request: ReceivedRequest): Record<string, unknown> {
  return JSON.parse(request.body.toString("utf8")) as Record<string, unknown>;
}

/** Receivers started through the returned function are closed after each test of the calling file. */
export function receiversClosedAfterEach(afterEach: (fn: () => Promise<void>) => void): () => Promise<WebhookReceiver> {
  const open: WebhookReceiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });
  return async () => {
    const r = await startWebhookReceiver();
    open.push(r);
    return r;
  };
}
