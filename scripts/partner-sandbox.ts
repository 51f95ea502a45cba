/**
 * A sandbox partner server that speaks the connector's protocol (D25; docs/decisions.md, "Partner
 * integration"), for development (`npm run dev` starts one when PARTNER_API_URL is not set) and
 * tests (import startPartnerSandbox). Never imported by the application.
 *
 *   GET  /v1/customers/:id        200 { customer_id, tenant_id, display_name } | 404
 *   POST /v1/uploads              201 { upload_url, expires_at } | 409 already received
 *   PUT  /upload/:token           201 when the body's SHA-256 (and length) match the announcement
 *   POST /v1/notices              202 { duplicate: false } | 200 { duplicate: true }
 *   GET  /_sandbox/log            the log (JSON), for tests in another process
 *   POST /_sandbox/fail?count=n   the next n partner requests answer 503
 *
 * Every /v1 request needs `Authorization: Bearer <api key>` (401 otherwise). Pushes are idempotent
 * on their `Idempotency-Key` (`<entity id>:<event>`). Uploaded bytes are hashed as they arrive and
 * never kept.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

export interface SandboxCustomer {
  tenant_id: string;
  display_name: string;
}

export type SandboxLogEntry =
  | { kind: "verify"; customer_id: string; found: boolean }
  | { kind: "credentials_rejected"; path: string }
  | { kind: "injected_failure"; method: string; path: string }
  | { kind: "upload_requested"; key: string; customer_id: string; file_id: string; sha256: string; size: number; duplicate: boolean }
  | { kind: "upload_received"; key: string; customer_id: string; file_id: string; sha256: string; size: number }
  | { kind: "upload_rejected"; key: string; reason: string }
  | { kind: "notice"; key: string; customer_id: string; entity_id: string; event: string; data: unknown; duplicate: boolean };

export interface PartnerSandbox {
  url: string;
  port: number;
  apiKey: string;
  readonly log: SandboxLogEntry[];
  /** The next `count` /v1 and upload requests answer 503 (0: none; replaces an earlier count). */
  failNext(count: number): void;
  close(): Promise<void>;
}

export interface SandboxOptions {
  port?: number;
  host?: string;
  apiKey?: string;
  customers?: Record<string, SandboxCustomer>;
  /** How long an upload URL is valid (default 60 s). */
  uploadUrlTtlMs?: number;
}

export const SANDBOX_API_KEY = "sandbox-secret-key";
export const SANDBOX_CUSTOMERS: Record<string, SandboxCustomer> = {
  "123456": { tenant_id: "tenant-sandbox-1", display_name: "Sandbox Accounting Ltd" },
  "234567": { tenant_id: "tenant-sandbox-1", display_name: "Second Sandbox Customer" },
};

interface Ticket {
  key: string;
  customerId: string;
  fileId: string;
  sha256: string;
  size: number;
  expiresAt: number;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1024 * 1024) throw new Error("body too large");
    chunks.push(chunk);
  }
  const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

const str = (v: unknown) => (typeof v === "string" ? v : "");

export async function startPartnerSandbox(options: SandboxOptions = {}): Promise<PartnerSandbox> {
  const apiKey = options.apiKey ?? SANDBOX_API_KEY;
  const customers = options.customers ?? SANDBOX_CUSTOMERS;
  const ttl = options.uploadUrlTtlMs ?? 60_000;
  const log: SandboxLogEntry[] = [];
  const tickets = new Map<string, Ticket>();
  /** Idempotency keys of completed uploads and received notices. */
  const received = new Set<string>();
  let failures = 0;
  let base = "";

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://sandbox");
    const path = url.pathname;
    const method = req.method ?? "GET";

    if (path === "/_sandbox/log" && method === "GET") return send(res, 200, log);
    if (path === "/_sandbox/fail" && method === "POST") {
      failures += Number(url.searchParams.get("count") ?? "1");
      return send(res, 200, { failing: failures });
    }
    if (failures > 0 && (path.startsWith("/v1/") || path.startsWith("/upload/"))) {
      failures--;
      log.push({ kind: "injected_failure", method, path });
      req.resume();
      return send(res, 503, { error: "temporarily_unavailable", error_description: "Injected sandbox failure" });
    }

    const upload = /^\/upload\/([A-Za-z0-9_-]+)$/.exec(path);
    if (upload && method === "PUT") return receiveUpload(req, res, upload[1] ?? "");

    if (!path.startsWith("/v1/")) return send(res, 404, { error: "not_found", error_description: "No such endpoint" });
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      req.resume();
      log.push({ kind: "credentials_rejected", path });
      return send(res, 401, { error: "invalid_credentials", error_description: "Unknown API key" });
    }

    const customer = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (customer && method === "GET") {
      const id = decodeURIComponent(customer[1] ?? "");
      const found = customers[id];
      log.push({ kind: "verify", customer_id: id, found: found !== undefined });
      if (!found) return send(res, 404, { error: "not_found", error_description: `No customer ${id}` });
      return send(res, 200, { customer_id: id, ...found });
    }

    const key = str(req.headers["idempotency-key"]);
    if (path === "/v1/uploads" && method === "POST") {
      const body = await readJson(req);
      const customerId = str(body.customer_id);
      const sha256 = str(body.sha256).toLowerCase();
      const size = typeof body.size === "number" ? body.size : -1;
      if (!key || !customers[customerId] || !/^[0-9a-f]{64}$/.test(sha256) || size < 0) {
        return send(res, 400, { error: "invalid_request", error_description: "Idempotency-Key, a known customer_id, sha256 and size are required" });
      }
      const duplicate = received.has(key);
      log.push({ kind: "upload_requested", key, customer_id: customerId, file_id: str(body.file_id), sha256, size, duplicate });
      if (duplicate) return send(res, 409, { error: "already_received", error_description: `${key} was received already` });
      const token = randomBytes(18).toString("base64url");
      const expiresAt = Date.now() + ttl;
      tickets.set(token, { key, customerId, fileId: str(body.file_id), sha256, size, expiresAt });
      return send(res, 201, { upload_url: `${base}/upload/${token}`, expires_at: new Date(expiresAt).toISOString() });
    }

    if (path === "/v1/notices" && method === "POST") {
      const body = await readJson(req);
      const customerId = str(body.customer_id);
      if (!key || !customers[customerId])
        return send(res, 400, { error: "invalid_request", error_description: "Idempotency-Key and a known customer_id are required" });
      const duplicate = received.has(key);
      received.add(key);
      log.push({ kind: "notice", key, customer_id: customerId, entity_id: str(body.entity_id), event: str(body.event), data: body.data, duplicate });
      return send(res, duplicate ? 200 : 202, { duplicate });
    }

    req.resume();
    return send(res, 404, { error: "not_found", error_description: "No such endpoint" });
  }

  async function receiveUpload(req: IncomingMessage, res: ServerResponse, token: string): Promise<void> {
    const ticket = tickets.get(token);
    if (!ticket || ticket.expiresAt < Date.now()) {
      req.resume();
      log.push({ kind: "upload_rejected", key: ticket?.key ?? token, reason: "expired" });
      return send(res, 410, { error: "expired", error_description: "This upload URL is unknown or expired" });
    }
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      hash.update(chunk);
      size += chunk.length;
    }
    const sha256 = hash.digest("hex");
    const announced = str(req.headers["x-checksum-sha256"]).toLowerCase();
    const reason = sha256 !== ticket.sha256 || announced !== ticket.sha256 ? "checksum_mismatch" : size !== ticket.size ? "size_mismatch" : null;
    if (reason) {
      log.push({ kind: "upload_rejected", key: ticket.key, reason });
      return send(res, 400, {
        error: reason,
        error_description: `The bytes do not match the announced ${reason === "checksum_mismatch" ? "SHA-256" : "size"}`,
      });
    }
    tickets.delete(token);
    received.add(ticket.key);
    log.push({ kind: "upload_received", key: ticket.key, customer_id: ticket.customerId, file_id: ticket.fileId, sha256, size });
    return send(res, 201, { received: true });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 400, { error: "invalid_request", error_description: error instanceof Error ? error.message : String(error) });
    });
  });
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  base = `http://${host}:${port}`;
  return {
    url: base,
    port,
    apiKey,
    log,
    failNext(count) {
      failures = count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// `tsx scripts/partner-sandbox.ts`: a standalone sandbox on PARTNER_SANDBOX_PORT (default 3610).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const sandbox = await startPartnerSandbox({ port: Number(process.env.PARTNER_SANDBOX_PORT ?? 3610) });
  process.stdout.write(`[partner-sandbox] ${sandbox.url} (API key ${sandbox.apiKey}; customer 123456 is known)\n`);
}
