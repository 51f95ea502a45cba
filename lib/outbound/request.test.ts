import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { afterEach, describe, expect, it } from "vitest";

import { checkOutboundUrl } from "./check-url";
import { OutboundError, type OutboundFailure } from "./errors";
import type { OutboundPolicy, ResolvedAddress } from "./policy";
import { IDLE_MS, MAX_SOCKETS_PER_HOST } from "./pool";
import { outboundRequest } from "./request";
import { outboundFailure, serversClosedAfterEach } from "@/lib/test-support/test-servers";

// Real requests to loopback servers. To prove that the address check (not the scheme rule)
// refuses, most refusals run with plain http allowed and private addresses not.

const open: OutboundPolicy = { allowPrivate: true, allowHttp: true };
const httpOnly: OutboundPolicy = { allowPrivate: false, allowHttp: true };

const server = serversClosedAfterEach(afterEach);
const failure = outboundFailure;
const reasonOf = async (promise: Promise<unknown>): Promise<OutboundFailure> => (await failure(promise)).reason;

describe("outboundRequest: sending", () => {
  it("POSTs with the caller's headers and a User-Agent, and returns status, headers and body", async () => {
    const s = await server((_req, res) => {
      res.writeHead(202, { "x-answer": "42" }).end("accepted");
    });
    const result = await outboundRequest({
      url: `${s.url}/hook?a=1`,
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Webhook-Event": "portal.created" },
      body: '{"ok":true}',
      timeoutMs: 5000,
      policy: open,
    });
    expect(result).toMatchObject({ status: 202, url: `${s.url}/hook?a=1`, truncated: false });
    expect(result.headers["x-answer"]).toBe("42");
    expect(result.body.toString()).toBe("accepted");
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    const [received] = s.requests;
    expect(received).toMatchObject({ method: "POST", path: "/hook?a=1" });
    expect(received?.headers["user-agent"]).toBe("ClientPortals/1.0");
    expect(received?.headers["content-type"]).toBe("application/json");
    expect(received?.headers["x-webhook-event"]).toBe("portal.created");
    expect(received?.headers["content-length"]).toBe("11");
    expect(received?.body.toString()).toBe('{"ok":true}');
  });

  it("sends non-ASCII and binary bodies byte for byte, and returns the response bytes exactly", async () => {
    const reply = Buffer.from("Antwort: Größe ✓ 🎉", "utf8");
    const s = await server((_req, res) => {
      res.end(reply);
    });
    const text = '{"name":"Müller & Søn — 日本語 🎉","q":"\\u0000"}';
    const result = await outboundRequest({ url: s.url, method: "POST", body: text, timeoutMs: 5000, policy: open });
    expect(s.requests[0]?.body.equals(Buffer.from(text, "utf8"))).toBe(true);
    expect(s.requests[0]?.headers["content-length"]).toBe(String(Buffer.byteLength(text)));
    expect(result.body.equals(reply)).toBe(true);

    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    await outboundRequest({ url: s.url, method: "PUT", body: bytes, timeoutMs: 5000, policy: open });
    expect(s.requests[1]?.method).toBe("PUT");
    expect(s.requests[1]?.body.equals(Buffer.from(bytes))).toBe(true);
  });

  it("lets the caller set its own User-Agent", async () => {
    const s = await server();
    await outboundRequest({ url: s.url, headers: { "user-agent": "Other/2" }, timeoutMs: 5000, policy: open });
    expect(s.requests[0]?.headers["user-agent"]).toBe("Other/2");
  });

  it("keeps maxResponseBytes of a longer body, marks it truncated and does not read the rest", async () => {
    const s = await server((_req, res) => {
      res.end(Buffer.alloc(200_000, "a"));
    });
    const cut = await outboundRequest({ url: s.url, timeoutMs: 5000, maxResponseBytes: 1024, policy: open });
    expect(cut.body.length).toBe(1024);
    expect(cut.truncated).toBe(true);
    const exact = await outboundRequest({ url: s.url, timeoutMs: 5000, maxResponseBytes: 200_000, policy: open });
    expect(exact.body.length).toBe(200_000);
    expect(exact.truncated).toBe(false);
    const byDefault = await outboundRequest({ url: s.url, timeoutMs: 5000, policy: open });
    expect(byDefault.body.length).toBe(64 * 1024);
  });

  it("sends HEAD and reads no body", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-length": "5" }).end();
    });
    const result = await outboundRequest({ url: s.url, method: "HEAD", timeoutMs: 5000, policy: open });
    expect(result.status).toBe(200);
    expect(result.body.length).toBe(0);
    expect(s.requests[0]?.method).toBe("HEAD");
  });
});

describe("outboundRequest: address check at connect time", () => {
  // Every spelling of a loopback address a URL can carry, all reaching the counting server.
  it.each([
    "http://127.0.0.1:PORT/",
    "http://2130706433:PORT/",
    "http://0x7f000001:PORT/",
    "http://0177.0.0.1:PORT/",
    "http://127.1:PORT/",
    "http://[::1]:PORT/",
    "http://[::ffff:127.0.0.1]:PORT/",
    "http://[::ffff:7f00:1]:PORT/",
    "http://localhost:PORT/",
    "http://0.0.0.0:PORT/",
  ])("refuses %s with private_address and opens no connection", async (template) => {
    const s = await server();
    const url = template.replace("PORT", String(s.port));
    expect(await reasonOf(outboundRequest({ url, timeoutMs: 5000, policy: httpOnly }))).toBe("private_address");
    expect(s.connections).toBe(0);
    // The same URL reaches the server once private addresses are allowed: the check, not the
    // URL, made the difference.
    const status = await outboundRequest({ url, timeoutMs: 5000, policy: open }).then(
      (r) => r.status,
      (e: unknown) => e,
    );
    // A machine without IPv6 loopback cannot show the IPv6 forms connecting.
    if (url.includes("[::") && status instanceof OutboundError && status.reason === "connection_failed") return;
    expect(status).toBe(200);
    expect(s.connections).toBe(1);
  });

  it.each([
    ["10.0.0.1", 4],
    ["172.16.0.1", 4],
    ["192.168.1.1", 4],
    ["169.254.169.254", 4],
    ["100.64.0.1", 4],
    ["127.0.0.1", 4],
    ["fd00::1", 6],
    ["fe80::1", 6],
    ["::ffff:169.254.169.254", 6],
  ])("refuses a name resolving to %s before connecting", async (address, family) => {
    const policy: OutboundPolicy = { ...httpOnly, resolve: async () => [{ address, family }] };
    const started = performance.now();
    expect(await reasonOf(outboundRequest({ url: "http://internal.test/", timeoutMs: 5000, policy }))).toBe("private_address");
    // Refused at lookup, not after waiting for an unreachable host.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("refuses IP-literal URLs of every private range without a lookup", async () => {
    for (const host of ["10.0.0.1", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "[fd00::1]", "[fe80::1]"]) {
      const policy: OutboundPolicy = {
        ...httpOnly,
        resolve: () => Promise.reject(new Error("an IP literal must not be resolved")),
      };
      expect(await reasonOf(outboundRequest({ url: `http://${host}/`, timeoutMs: 5000, policy }))).toBe("private_address");
    }
  });

  it("refuses at delivery a host that resolved to a public address when it was checked (DNS rebinding)", async () => {
    const s = await server();
    const answers: ResolvedAddress[][] = [[{ address: "93.184.215.14", family: 4 }], [{ address: "127.0.0.1", family: 4 }]];
    let lookups = 0;
    const policy: OutboundPolicy = { ...httpOnly, resolve: async () => answers[lookups++] ?? [] };
    const url = `http://rebind.test:${s.port}/`;
    await expect(checkOutboundUrl(url, policy)).resolves.toBeInstanceOf(URL);
    expect(await reasonOf(outboundRequest({ url, method: "POST", body: "{}", timeoutMs: 5000, policy }))).toBe("private_address");
    expect(lookups).toBe(2);
    expect(s.connections).toBe(0);
  });

  it("connects to the address it checked, not to a second resolution", async () => {
    const s = await server();
    let lookups = 0;
    const policy: OutboundPolicy = {
      ...open,
      resolve: async () => {
        lookups++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    };
    await outboundRequest({ url: `http://receiver.test:${s.port}/`, timeoutMs: 5000, policy });
    expect(lookups).toBe(1);
    expect(s.requests[0]?.headers.host).toBe(`receiver.test:${s.port}`);
  });

  it("refuses a name mixing public and private addresses", async () => {
    const policy: OutboundPolicy = {
      ...httpOnly,
      resolve: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ],
    };
    expect(await reasonOf(outboundRequest({ url: "http://mixed.test/", timeoutMs: 5000, policy }))).toBe("private_address");
  });

  it("refuses plain http unless the policy allows it", async () => {
    const s = await server();
    const policy: OutboundPolicy = { allowPrivate: true, allowHttp: false };
    expect(await reasonOf(outboundRequest({ url: s.url, timeoutMs: 5000, policy }))).toBe("scheme_not_allowed");
    expect(s.connections).toBe(0);
  });
});

describe("outboundRequest: redirects", () => {
  function redirectTo(location: (path: string) => string, status = 302) {
    return (req: { url?: string }, res: import("node:http").ServerResponse) => {
      res.writeHead(status, { location: location(req.url ?? "/") }).end("moved");
    };
  }

  it("returns a 302 as the answer when maxRedirects is 0, and the target receives nothing", async () => {
    const target = await server();
    const s = await server(redirectTo(() => `${target.url}/elsewhere`));
    const result = await outboundRequest({ url: s.url, method: "POST", body: "{}", timeoutMs: 5000, policy: open });
    expect(result.status).toBe(302);
    expect(result.headers.location).toBe(`${target.url}/elsewhere`);
    expect(result.url).toBe(`${s.url}/`);
    expect(target.connections).toBe(0);
  });

  it("follows redirects up to the limit, re-resolving relative locations", async () => {
    const s = await server((req, res) => {
      const n = Number(req.url?.slice(1) || "0");
      if (n < 3) res.writeHead(301, { location: `/${n + 1}` }).end();
      else res.end(`arrived at ${n}`);
    });
    const result = await outboundRequest({ url: s.url, timeoutMs: 5000, maxRedirects: 3, policy: open });
    expect(result).toMatchObject({ status: 200, url: `${s.url}/3` });
    expect(result.body.toString()).toBe("arrived at 3");
  });

  it("gives too_many_redirects past the limit, after exactly limit + 1 requests", async () => {
    const s = await server(redirectTo((path) => `${path}x`));
    expect(await reasonOf(outboundRequest({ url: s.url, timeoutMs: 5000, maxRedirects: 3, policy: open }))).toBe("too_many_redirects");
    expect(s.requests.map((r) => r.path)).toEqual(["/", "/x", "/xx", "/xxx"]);
  });

  it("refuses a redirect from an allowed host to a loopback address, which receives nothing", async () => {
    const internal = await server();
    const front = await server(redirectTo(() => `${internal.url}/admin`));
    // The front server stands in for a public host; the internal one keeps its loopback status.
    const policy: OutboundPolicy = { ...httpOnly, publicEndpoints: [`127.0.0.1:${front.port}`] };
    expect(await reasonOf(outboundRequest({ url: front.url, timeoutMs: 5000, maxRedirects: 3, policy }))).toBe("private_address");
    expect(front.requests).toHaveLength(1);
    expect(internal.connections).toBe(0);
  });

  it("refuses a redirect to a name that resolves to a private address, checked at connect time", async () => {
    const internal = await server();
    const front = await server(redirectTo(() => `http://intranet.test:${internal.port}/`));
    const policy: OutboundPolicy = {
      ...httpOnly,
      publicEndpoints: [`127.0.0.1:${front.port}`],
      // Both names are loopback; only the front's endpoint is declared public.
      resolve: async () => [{ address: "127.0.0.1", family: 4 }],
    };
    expect(await reasonOf(outboundRequest({ url: `http://front.test:${front.port}/`, timeoutMs: 5000, maxRedirects: 3, policy }))).toBe("private_address");
    expect(front.requests).toHaveLength(1);
    expect(internal.connections).toBe(0);
  });

  it("refuses a redirect to another scheme", async () => {
    const s = await server(redirectTo(() => "file:///etc/passwd"));
    expect(await reasonOf(outboundRequest({ url: s.url, timeoutMs: 5000, maxRedirects: 3, policy: open }))).toBe("scheme_not_allowed");
  });

  it("turns a POST into a GET on 303, keeps it on 307, and drops credentials on another origin", async () => {
    const other = await server();
    const s = await server((req, res) => {
      if (req.url === "/see-other") res.writeHead(303, { location: "/done" }).end();
      else if (req.url === "/temporary") res.writeHead(307, { location: "/done" }).end();
      else if (req.url === "/away") res.writeHead(307, { location: `${other.url}/x` }).end();
      else res.end("done");
    });
    const post = { method: "POST" as const, body: "payload", timeoutMs: 5000, maxRedirects: 1, policy: open };
    const headers = { authorization: "Bearer secret", "content-type": "text/plain" };
    await outboundRequest({ ...post, url: `${s.url}/see-other`, headers });
    expect(s.requests[1]).toMatchObject({ method: "GET", path: "/done" });
    expect(s.requests[1]?.body.length).toBe(0);
    expect(s.requests[1]?.headers["content-type"]).toBeUndefined();

    await outboundRequest({ ...post, url: `${s.url}/temporary`, headers });
    expect(s.requests[3]).toMatchObject({ method: "POST", path: "/done" });
    expect(s.requests[3]?.body.toString()).toBe("payload");
    expect(s.requests[3]?.headers.authorization).toBe("Bearer secret");

    // Another port is another origin.
    await outboundRequest({ ...post, url: `${s.url}/away`, headers });
    expect(other.requests[0]?.body.toString()).toBe("payload");
    expect(other.requests[0]?.headers.authorization).toBeUndefined();
  });
});

describe("outboundRequest: keep-alive pool", () => {
  const resolvingTo = (policy: OutboundPolicy, answers: string[][]) => {
    let lookups = 0;
    const counted: OutboundPolicy = {
      ...policy,
      resolve: async () => (answers[lookups++] ?? []).map((address) => ({ address, family: 4 })),
    };
    return { policy: counted, lookups: () => lookups };
  };

  it("sends sequential requests to one host over one connection", async () => {
    const s = await server();
    for (let i = 0; i < 3; i++) {
      expect((await outboundRequest({ url: `${s.url}/n${i}`, method: "POST", body: `{"i":${i}}`, timeoutMs: 5000, policy: open })).status).toBe(200);
    }
    expect(s.requests.map((r) => r.body.toString())).toEqual(['{"i":0}', '{"i":1}', '{"i":2}']);
    expect(s.connections).toBe(1);
  });

  it("still refuses a private address when the policy does not allow it, although a socket to it is pooled", async () => {
    const s = await server();
    await outboundRequest({ url: s.url, timeoutMs: 5000, policy: open });
    expect(await reasonOf(outboundRequest({ url: s.url, method: "POST", body: "{}", timeoutMs: 5000, policy: httpOnly }))).toBe("private_address");
    const named = resolvingTo(httpOnly, [["127.0.0.1"]]);
    expect(await reasonOf(outboundRequest({ url: `http://receiver.test:${s.port}/`, timeoutMs: 5000, policy: named.policy }))).toBe("private_address");
    expect(s.requests).toHaveLength(1);
    expect(s.connections).toBe(1);
  });

  it("vets a host again at every request and gives a changed DNS answer its own connection", async () => {
    const s = await server();
    const url = `http://receiver.test:${s.port}/`;
    // Both loopback addresses reach the server; the second answer is another address.
    const moving = resolvingTo(open, [["127.0.0.1"], ["127.0.0.1"], ["127.0.0.2"]]);
    for (let i = 0; i < 3; i++) expect((await outboundRequest({ url, timeoutMs: 5000, policy: moving.policy })).status).toBe(200);
    expect(moving.lookups()).toBe(3);
    expect(s.requests).toHaveLength(3);
    expect(s.connections).toBe(2);
  });

  it("refuses a host whose DNS answer moved to a refused address, sending nothing over the pooled socket", async () => {
    const s = await server();
    const url = `http://rebind.test:${s.port}/`;
    // 127.0.0.1:port stands in for a public receiver; 127.0.0.2 stays internal.
    const rebinding = resolvingTo({ ...httpOnly, publicEndpoints: [`127.0.0.1:${s.port}`] }, [["127.0.0.1"], ["127.0.0.2"]]);
    expect((await outboundRequest({ url, method: "POST", body: "{}", timeoutMs: 5000, policy: rebinding.policy })).status).toBe(200);
    expect(await reasonOf(outboundRequest({ url, method: "POST", body: "{}", timeoutMs: 5000, policy: rebinding.policy }))).toBe("private_address");
    expect(rebinding.lookups()).toBe(2);
    expect(s.requests).toHaveLength(1);
    expect(s.connections).toBe(1);
  });

  it("keeps at most MAX_SOCKETS_PER_HOST connections to one host; more requests wait for one", async () => {
    let inFlight = 0;
    let most = 0;
    const s = await server((_req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight--;
        res.end("ok");
      }, 30);
    });
    const results = await Promise.all(
      Array.from({ length: MAX_SOCKETS_PER_HOST + 8 }, () => outboundRequest({ url: s.url, method: "POST", body: "{}", timeoutMs: 5000, policy: open })),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(s.connections).toBe(MAX_SOCKETS_PER_HOST);
    expect(most).toBe(MAX_SOCKETS_PER_HOST);
  });

  it("closes a pooled connection after IDLE_MS without requests", async () => {
    const closed: number[] = [];
    const raw = createHttpServer((_req, res) => res.end("ok"));
    raw.on("connection", (socket) => socket.once("close", () => closed.push(performance.now())));
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    // The server keeps idle connections longer than the client, so the client is the one closing.
    raw.keepAliveTimeout = IDLE_MS * 3;
    const { port } = raw.address() as AddressInfo;
    try {
      await outboundRequest({ url: `http://127.0.0.1:${port}/`, timeoutMs: 5000, policy: open });
      const idleFrom = performance.now();
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS + 500));
      expect(closed).toHaveLength(1);
      expect(closed[0]! - idleFrom).toBeGreaterThanOrEqual(IDLE_MS - 100);
    } finally {
      raw.closeAllConnections();
      await new Promise((resolve) => raw.close(resolve));
    }
  }, 10_000);

  it("sends again on a fresh connection when the pooled one was closed by the receiver", async () => {
    const served = new WeakMap<object, number>();
    const s = await server((req, res) => {
      const n = (served.get(req.socket) ?? 0) + 1;
      served.set(req.socket, n);
      // Answers the first request of a connection; hangs up on a reused one, as a receiver whose
      // idle timeout ran out at that moment would.
      if (n > 1) req.socket.destroy();
      else res.end("ok");
    });
    await outboundRequest({ url: s.url, method: "POST", body: "{}", timeoutMs: 5000, policy: open });
    const again = await outboundRequest({ url: s.url, method: "POST", body: "{}", timeoutMs: 5000, policy: open });
    expect(again.status).toBe(200);
    expect(s.connections).toBe(2);
  });
});

describe("outboundRequest: time limit and failures", () => {
  it("cuts a receiver that accepts and never answers at timeoutMs", async () => {
    const s = await server(() => {
      // Never answers.
    });
    const started = performance.now();
    expect(await reasonOf(outboundRequest({ url: s.url, method: "POST", body: "{}", timeoutMs: 300, policy: open }))).toBe("timeout");
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(290);
    expect(elapsed).toBeLessThan(1500);
    expect(s.connections).toBe(1);
  });

  it("counts the whole exchange, not idle time: a body that trickles forever is cut", async () => {
    const timers: NodeJS.Timeout[] = [];
    const s = await server((_req, res) => {
      res.writeHead(200);
      timers.push(setInterval(() => res.write("."), 50));
    });
    const started = performance.now();
    expect(await reasonOf(outboundRequest({ url: s.url, timeoutMs: 400, policy: open }))).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1500);
    timers.forEach(clearInterval);
  });

  it("gives connection_failed when nothing listens, and when the receiver hangs up mid-answer", async () => {
    const s = await server();
    const closedUrl = s.url;
    await s.close();
    expect(await reasonOf(outboundRequest({ url: closedUrl, timeoutMs: 5000, policy: open }))).toBe("connection_failed");

    const rude = await server((_req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("only part");
      setTimeout(() => res.destroy(), 20);
    });
    expect(await reasonOf(outboundRequest({ url: rude.url, timeoutMs: 5000, policy: open }))).toBe("connection_failed");
  });

  it("gives dns_failed when the name does not resolve", async () => {
    const policy: OutboundPolicy = {
      ...open,
      resolve: () => Promise.reject(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" })),
    };
    expect(await reasonOf(outboundRequest({ url: "http://nowhere.test/", timeoutMs: 5000, policy }))).toBe("dns_failed");
  });

  it("gives tls_failed when an https URL reaches a server that does not speak TLS", async () => {
    const s = await server();
    expect(await reasonOf(outboundRequest({ url: `https://127.0.0.1:${s.port}/`, timeoutMs: 5000, policy: open }))).toBe("tls_failed");
    expect(s.requests).toHaveLength(0);
  });

  it.skipIf(!hasOpenssl())("gives tls_failed for a certificate no CA vouches for, before sending anything", async () => {
    const dir = mkdtempSync(join(tmpdir(), "outbound-tls-"));
    try {
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "ec",
          "-pkeyopt",
          "ec_paramgen_curve:prime256v1",
          "-nodes",
          "-days",
          "1",
          "-subj",
          "/CN=localhost",
          "-addext",
          "subjectAltName=IP:127.0.0.1,DNS:localhost",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ],
        { stdio: "ignore" },
      );
      let requests = 0;
      const tlsServer = createHttpsServer({ key: readFileSync(join(dir, "key.pem")), cert: readFileSync(join(dir, "cert.pem")) }, (_req, res) => {
        requests++;
        res.end("secret");
      });
      await new Promise<void>((resolve) => tlsServer.listen(0, "127.0.0.1", resolve));
      const { port } = tlsServer.address() as AddressInfo;
      try {
        const error = await failure(outboundRequest({ url: `https://127.0.0.1:${port}/`, method: "POST", body: "{}", timeoutMs: 5000, policy: open }));
        expect(error.reason).toBe("tls_failed");
        expect(requests).toBe(0);
      } finally {
        tlsServer.closeAllConnections();
        await new Promise((resolve) => tlsServer.close(resolve));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    const s = await server(() => {
      // Never answers.
    });
    const controller = new AbortController();
    const reason = new Error("shutting down");
    setTimeout(() => controller.abort(reason), 50);
    await expect(outboundRequest({ url: s.url, timeoutMs: 5000, signal: controller.signal, policy: open })).rejects.toBe(reason);
  });
});

function hasOpenssl(): boolean {
  try {
    execFileSync("openssl", ["version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}
