import { type ChildProcess, spawn } from "node:child_process";
import { Agent, request } from "node:http";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { OpenApiDocument } from "@/lib/api/openapi/types";
import { createApiContext, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { productionServerArgs } from "../scripts/lib/production-server.ts";

// One build, two servers, one database: the application server of the fuzz tier (the API's route
// handlers called by the dispatcher) and plain `next start` (the same handlers through Next.js's
// router and proxy.ts). Every operation of the OpenAPI document, the OAuth endpoints and each kind
// of 404 and 405 must get the same answer from both: status, headers and body, once dates, ids,
// nonces and the rate limit's running count are set aside. Its `next start` on
// FUZZ_PARITY_PORT (default FUZZ_PORT + 2).

const root = fileURLToPath(new URL("..", import.meta.url));
const { baseUrl, env } = inject("fuzz");
const port = Number(process.env["FUZZ_PARITY_PORT"] ?? Number(new URL(baseUrl).port) + 2);
const nextStartUrl = `http://127.0.0.1:${port}`;
const dispatcherUrl = `http://127.0.0.1:${new URL(baseUrl).port}`;
const MISSING = "00000000-0000-4000-8000-000000000000";

let server: ChildProcess;
let output = "";
let token = "";
let clientId = "";
let clientSecret = "";
const known: Record<string, string> = {};

beforeAll(async () => {
  server = spawn(process.execPath, productionServerArgs(port, "127.0.0.1", { nextStart: true }), {
    cwd: root,
    // The fuzz server's own environment (its APP_URL too: tokens and links name the same origin).
    env: { ...process.env, ...env, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (c: Buffer) => (output += c.toString("utf8")));
  server.stderr?.on("data", (c: Buffer) => (output += c.toString("utf8")));
  const deadline = Date.now() + 90_000;
  while (
    !(await fetch(`${nextStartUrl}/healthz`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (server.exitCode !== null) throw new Error(`next start exited: ${output}`);
    if (Date.now() > deadline) throw new Error(`next start did not answer /healthz: ${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const api = await createApiContext();
  token = api.token;
  clientId = api.client.clientId;
  clientSecret = api.secret;
  const [state] = await createTestWorkflowStates(api.org.id);
  const portal = await fetch(`${dispatcherUrl}/api/v1/portals`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: "Parity", tags: ["parity"] }),
  }).then((r) => r.json() as Promise<{ id: string }>);
  const task = await fetch(`${dispatcherUrl}/api/v1/portals/${portal.id}/tasks`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ title: "Parity task" }),
  }).then((r) => r.json() as Promise<{ task_id: string }>);
  Object.assign(known, { portalId: portal.id, taskId: task.task_id, workflowStateId: state!.id });
}, 180_000);

afterAll(async () => {
  if (server && server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((r) => server.once("exit", r));
    server.kill("SIGTERM");
    await exited;
  }
});

interface Probe {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Headers that differ between any two responses of one server (and the connection's own), and
 * the Vary that Next.js's router adds to every response for its own RSC cache keys: the API's
 * answers are `no-store` and never vary on those request headers.
 */
const VOLATILE = new Set(["date", "x-request-id", "x-ratelimit-remaining", "x-ratelimit-reset", "keep-alive", "connection", "transfer-encoding", "vary"]);

function normalise(text: string): string {
  return (
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})/g, "<time>")
      // A CSP nonce (16 random bytes) wherever it appears: the header, script tags, the RSC payload.
      .replace(/[A-Za-z0-9+/]{22}==/g, "<nonce>")
      // Each server's own origin (a rewrite's target names it).
      .replaceAll(`localhost:${new URL(dispatcherUrl).port}`, "<origin>")
      .replaceAll(`localhost:${port}`, "<origin>")
      .replaceAll(`127.0.0.1:${new URL(dispatcherUrl).port}`, "<origin>")
      .replaceAll(`127.0.0.1:${port}`, "<origin>")
  );
}

async function send(base: string, probe: Probe): Promise<Answer> {
  const res = await fetch(`${base}${probe.path}`, { method: probe.method, headers: probe.headers, body: probe.body, redirect: "manual" });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!VOLATILE.has(name)) headers[name] = normalise(value);
  });
  const body = normalise(await res.text());
  // Content-Length follows the body, which may hold an id or a time of different length.
  delete headers["content-length"];
  return { status: res.status, headers, body };
}

function probesOfDocument(doc: OpenApiDocument): (Probe & { name: string })[] {
  return Object.entries(doc.paths).flatMap(([template, byMethod]) =>
    Object.keys(byMethod).map((m) => {
      const method = m.toUpperCase();
      // Reads name the organization's real portal and task; writes a missing one (404) or send
      // an empty object (400 naming the field), so both servers see the same data throughout.
      const read = method === "GET";
      const path = template.replace(/\{([^}]+)\}/g, (_all, name: string) => (read ? (known[name] ?? MISSING) : MISSING));
      const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
      if (!read) headers["Content-Type"] = "application/json";
      return { name: `${method} ${template}`, method, path, headers, ...(read ? {} : { body: "{}" }) };
    }),
  );
}

describe("the dispatcher answers as next start does", { timeout: 120_000 }, () => {
  it("every operation of the OpenAPI document, the OAuth endpoints, and each kind of 404 and 405", async () => {
    const doc = (await fetch(`${dispatcherUrl}/api/v1/openapi.json`).then((r) => r.json())) as OpenApiDocument;
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`;
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const probes: (Probe & { name: string })[] = [
      ...probesOfDocument(doc),
      { name: "GET /api/v1/openapi.json", method: "GET", path: "/api/v1/openapi.json" },
      {
        name: "token: unknown refresh token",
        method: "POST",
        path: "/oauth/token",
        headers: { ...form, Authorization: basic },
        body: "grant_type=refresh_token&refresh_token=nope",
      },
      {
        name: "token: bad client",
        method: "POST",
        path: "/oauth/token",
        headers: { ...form, Authorization: "Basic eDp5" },
        body: "grant_type=refresh_token&refresh_token=nope",
      },
      { name: "token: unsupported grant", method: "POST", path: "/oauth/token", headers: { ...form, Authorization: basic }, body: "grant_type=password" },
      { name: "revoke: unknown token", method: "POST", path: "/oauth/revoke", headers: { ...form, Authorization: basic }, body: "token=nope" },
      { name: "revoke: no client", method: "POST", path: "/oauth/revoke", headers: form, body: "token=nope" },
      { name: "404: unknown path under /api/v1", method: "GET", path: "/api/v1/nothing-here", headers: { Authorization: `Bearer ${token}` } },
      { name: "404: unknown path, another method", method: "POST", path: "/api/v1/nothing/here", headers: { Authorization: `Bearer ${token}` }, body: "{}" },
      { name: "405: a known path, a method it lacks", method: "DELETE", path: "/api/v1/portals", headers: { Authorization: `Bearer ${token}` } },
      { name: "405: PUT on a task", method: "PUT", path: `/api/v1/tasks/${MISSING}`, headers: { Authorization: `Bearer ${token}` }, body: "{}" },
      { name: "405: GET on the token endpoint", method: "GET", path: "/oauth/token" },
      { name: "405: DELETE on the revocation endpoint", method: "DELETE", path: "/oauth/revoke" },
      { name: "404: unknown OAuth path", method: "POST", path: "/oauth/nothing-here", headers: form, body: "x=1" },
    ];
    expect(probes.length).toBeGreaterThan(25);
    const differences: string[] = [];
    for (const probe of probes) {
      const viaDispatcher = await send(dispatcherUrl, probe);
      const viaNext = await send(nextStartUrl, probe);
      try {
        expect(viaDispatcher).toEqual(viaNext);
      } catch {
        differences.push(`${probe.name}:\n  dispatcher ${JSON.stringify(viaDispatcher)}\n  next start ${JSON.stringify(viaNext)}`);
      }
    }
    expect(differences.join("\n")).toBe("");
  });
});

/** Sends a request's head (and `body`, if any), and reads what comes back until the server closes or `ms` pass. */
function exchange(base: string, head: string, body: Buffer | null, ms: number): Promise<{ response: string; closedBy: "server" | "timeout" }> {
  const { hostname, port: p } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(p), hostname);
    let response = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ response, closedBy: "timeout" });
    }, ms);
    socket.on("data", (c: Buffer) => (response += c.toString("latin1")));
    socket.on("end", () => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, closedBy: "server" });
    });
    socket.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.write(head);
    if (body) socket.write(body);
  });
}

describe("a 413 answered before the body is read", { timeout: 60_000 }, () => {
  const max = Number(env["API_MAX_BODY_BYTES"] ?? 1_048_576);
  // next start reads the whole body before its proxy runs, so it is sent there; the dispatcher
  // answers on the declared length alone, so there it is not.
  it.each([
    ["the dispatcher, the body unsent", () => dispatcherUrl, false],
    ["next start, the body sent", () => nextStartUrl, true],
  ])("closes the kept-alive connection (%s), and the next request is answered at once", async (_name, base, sendBody) => {
    const head = [
      "POST /api/v1/portals HTTP/1.1",
      `Host: 127.0.0.1:${new URL(base()).port}`,
      `Authorization: Bearer ${token}`,
      "Content-Type: application/json",
      `Content-Length: ${max + 1}`,
      "Connection: keep-alive",
      "",
      "",
    ].join("\r\n");
    const { response, closedBy } = await exchange(base(), head, sendBody ? Buffer.alloc(max + 1, 0x20) : null, 5_000);
    expect(response).toMatch(/^HTTP\/1\.1 413 /);
    expect(response.toLowerCase()).toContain("connection: close");
    // Not left waiting for the body, where the connection's next request would be read from.
    expect(closedBy).toBe("server");
    const started = Date.now();
    const next = await fetch(`${base()}/api/v1/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(next.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe("kept-alive connections", { timeout: 30_000 }, () => {
  it("stay open while idle past Node's default 5 s, so a client's next request is answered on the same one", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; keepAlive: string; reused: boolean }>((resolve, reject) => {
        const req = request(`${dispatcherUrl}/healthz`, { agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, keepAlive: String(res.headers["keep-alive"]), reused: req.reusedSocket }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      const first = await get();
      expect(first).toMatchObject({ status: 200, reused: false });
      expect(first.keepAlive).toMatch(/timeout=65\b/);
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await get()).toMatchObject({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  });
});
