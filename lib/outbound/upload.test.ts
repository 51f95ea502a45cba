import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";

import type { OutboundPolicy } from "./policy";
import { outboundFailure, serversClosedAfterEach } from "@/lib/test-support/test-servers";
import { outboundUpload } from "./upload";

// Streaming uploads (the partner's upload URLs) to real loopback servers.

const open: OutboundPolicy = { allowPrivate: true, allowHttp: true };
const httpOnly: OutboundPolicy = { allowPrivate: false, allowHttp: true };
const server = serversClosedAfterEach(afterEach);

/** `count` chunks of 64 KiB, produced as they are read; `destroyed` says whether the stream was torn down. */
function source(count: number) {
  let n = 0;
  const stream = new Readable({
    read() {
      this.push(n++ < count ? Buffer.alloc(64 * 1024, n) : null);
    },
  });
  return stream;
}

describe("outboundUpload", () => {
  it("streams the body with its Content-Length and the caller's headers, and returns the answer", async () => {
    const s = await server((req, res, body) => {
      res.writeHead(201).end(createHash("sha256").update(body).digest("hex"));
    });
    const expected = createHash("sha256");
    for (let i = 1; i <= 40; i++) expected.update(Buffer.alloc(64 * 1024, i));
    const result = await outboundUpload({
      url: `${s.url}/upload/t`,
      headers: { "X-Checksum-SHA256": "abc" },
      body: source(40),
      contentLength: 40 * 64 * 1024,
      timeoutMs: 5000,
      policy: open,
    });
    expect(result.status).toBe(201);
    expect(result.body.toString()).toBe(expected.digest("hex"));
    const [received] = s.requests;
    expect(received).toMatchObject({ method: "PUT", path: "/upload/t" });
    expect(received?.headers["content-length"]).toBe(String(40 * 64 * 1024));
    expect(received?.headers["x-checksum-sha256"]).toBe("abc");
  });

  it("returns a redirect as the answer without following it", async () => {
    const s = await server((_req, res) => {
      res.writeHead(307, { location: "/elsewhere" }).end();
    });
    const result = await outboundUpload({ url: s.url, body: source(1), contentLength: 64 * 1024, timeoutMs: 5000, policy: open });
    expect(result.status).toBe(307);
    expect(s.requests).toHaveLength(1);
  });

  it("refuses a private address before connecting, and destroys the body", async () => {
    const s = await server();
    const body = source(10);
    const error = await outboundFailure(outboundUpload({ url: s.url, body, contentLength: 10 * 64 * 1024, timeoutMs: 5000, policy: httpOnly }));
    expect(error.reason).toBe("private_address");
    expect(s.connections).toBe(0);
    expect(body.destroyed).toBe(true);
  });
});
