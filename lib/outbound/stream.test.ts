import type { ServerResponse } from "node:http";
import { Writable, type Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

import { afterEach, describe, expect, it } from "vitest";

import { OutboundError, type OutboundFailure } from "./errors";
import type { OutboundPolicy } from "./policy";
import { outboundStream } from "./stream";
import { outboundFailure, serversClosedAfterEach } from "@/lib/test-support/test-servers";

const open: OutboundPolicy = { allowPrivate: true, allowHttp: true };
const MB = 1024 * 1024;

const server = serversClosedAfterEach(afterEach);
const reasonOf = async (promise: Promise<unknown>): Promise<OutboundFailure> => (await outboundFailure(promise)).reason;

/** Reads a body to its end, counting bytes and keeping none. */
async function drain(body: Readable): Promise<{ bytes: number; error?: unknown }> {
  let bytes = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done();
    },
  });
  try {
    await pipeline(body, sink);
    return { bytes };
  } catch (error) {
    return { bytes, error };
  }
}

interface Progress {
  sent: number;
  finished: boolean;
  /** The connection closed before the whole body was written. */
  cut: boolean;
}

/**
 * Writes `total` bytes in 64 KiB chunks, waiting for drain like any well-behaved sender. With
 * `pauseAt`, stops there for 3 s, so a test can see that the receiver gave up mid-body.
 */
function sendBytes(res: ServerResponse, total: number, progress: Progress, pauseAt = Infinity): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let paused = false;
  const pump = () => {
    while (progress.sent < total && !progress.cut) {
      if (progress.sent >= pauseAt && !paused) {
        paused = true;
        setTimeout(pump, 3000).unref();
        return;
      }
      const n = Math.min(chunk.length, total - progress.sent);
      progress.sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once("drain", pump);
        return;
      }
    }
    if (!progress.cut) {
      res.end(() => {
        progress.finished = true;
      });
    }
  };
  res.on("error", () => undefined);
  res.on("close", () => {
    if (!progress.finished) progress.cut = true;
  });
  pump();
}

const newProgress = (): Progress => ({ sent: 0, finished: false, cut: false });

describe("outboundStream", () => {
  it("streams a body with its status, headers and declared length", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf", "content-length": "5" }).end("%PDF-");
    });
    const result = await outboundStream({ url: `${s.url}/f.pdf`, timeoutMs: 5000, maxRedirects: 3, maxBytes: 100, policy: open });
    expect(result).toMatchObject({ status: 200, url: `${s.url}/f.pdf`, contentLength: 5 });
    expect(result.headers["content-type"]).toBe("application/pdf");
    const chunks: Buffer[] = [];
    for await (const chunk of result.body as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe("%PDF-");
    expect(s.requests[0]?.headers["user-agent"]).toBe("ClientPortals/1.0");
  });

  it("returns a non-2xx final status for the caller to judge", async () => {
    const s = await server((_req, res) => {
      res.writeHead(404, { "content-length": "7" }).end("missing");
    });
    const result = await outboundStream({ url: s.url, timeoutMs: 5000, maxRedirects: 3, maxBytes: 100, policy: open });
    expect(result.status).toBe(404);
    expect(result.contentLength).toBe(7);
    expect((await drain(result.body)).bytes).toBe(7);
  });

  it("stops a 101 MB body right after 100 MB, without collecting it and before the sender is done", async () => {
    const progress = newProgress();
    const s = await server((_req, res) => {
      // No Content-Length: the cap, not the announcement, must stop it.
      res.writeHead(200, { "content-type": "application/octet-stream" });
      // Pauses just past the cap: the error must come from the cap, not from the end of the body.
      sendBytes(res, 101 * MB, progress, 100 * MB + 64 * 1024);
    });
    const result = await outboundStream({ url: s.url, timeoutMs: 30_000, maxRedirects: 3, maxBytes: 100 * MB, policy: open });
    expect(result.contentLength).toBeNull();

    // Not read yet: the sender is held back by backpressure instead of the body piling up here.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(progress.sent).toBeLessThan(16 * MB);

    let bytes = 0;
    let buffered = 0;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        buffered = Math.max(buffered, result.body.readableLength);
        done();
      },
    });
    const error = await pipeline(result.body, sink).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("too_large");
    expect(bytes).toBeLessThanOrEqual(100 * MB);
    expect(bytes).toBeGreaterThan(99 * MB);
    // The body stream itself never held more than its small read buffer.
    expect(buffered).toBeLessThanOrEqual(MB);
    // The connection was cut while the sender still held the last megabyte back.
    await expect.poll(() => progress.cut).toBe(true);
    expect(progress.sent).toBe(100 * MB + 64 * 1024);
    expect(progress.finished).toBe(false);
  });

  it("refuses a 2xx that announces more than maxBytes before reading its body", async () => {
    const progress = newProgress();
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-length": String(101 * MB) });
      sendBytes(res, 101 * MB, progress);
    });
    expect(await reasonOf(outboundStream({ url: s.url, timeoutMs: 30_000, maxRedirects: 0, maxBytes: 100 * MB, policy: open }))).toBe("too_large");
    await expect.poll(() => progress.cut).toBe(true);
    expect(progress.sent).toBeLessThan(20 * MB);
  });

  it("accepts a body of exactly maxBytes", async () => {
    const s = await server((_req, res) => {
      res.end(Buffer.alloc(1000));
    });
    const result = await outboundStream({ url: s.url, timeoutMs: 5000, maxRedirects: 0, maxBytes: 1000, policy: open });
    expect(await drain(result.body)).toEqual({ bytes: 1000 });
  });

  it("ends the body with timeout when the total time passes during the download", async () => {
    const timers: NodeJS.Timeout[] = [];
    const s = await server((_req, res) => {
      res.writeHead(200);
      timers.push(setInterval(() => res.write("."), 50));
    });
    const started = performance.now();
    const result = await outboundStream({ url: s.url, timeoutMs: 400, maxRedirects: 0, maxBytes: MB, policy: open });
    const { error } = await drain(result.body);
    timers.forEach(clearInterval);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1500);
  });

  it("gives timeout when no answer comes", async () => {
    const s = await server(() => {
      // Never answers.
    });
    expect(await reasonOf(outboundStream({ url: s.url, timeoutMs: 300, maxRedirects: 3, maxBytes: MB, policy: open }))).toBe("timeout");
  });

  it("gives connection_failed in the body when the sender hangs up early", async () => {
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-length": "1000" });
      res.write("part");
      setTimeout(() => res.destroy(), 20);
    });
    const result = await outboundStream({ url: s.url, timeoutMs: 5000, maxRedirects: 0, maxBytes: MB, policy: open });
    const { error } = await drain(result.body);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).reason).toBe("connection_failed");
  });

  it("follows 3 redirects, refuses a 4th, and re-checks every hop", async () => {
    const s = await server((req, res) => {
      const n = Number(req.url?.slice(1) || "0");
      if (n < 4) res.writeHead(302, { location: `/${n + 1}` }).end();
      else res.end("file");
    });
    expect(await reasonOf(outboundStream({ url: `${s.url}/0`, timeoutMs: 5000, maxRedirects: 3, maxBytes: MB, policy: open }))).toBe("too_many_redirects");
    const result = await outboundStream({ url: `${s.url}/1`, timeoutMs: 5000, maxRedirects: 3, maxBytes: MB, policy: open });
    expect(result.url).toBe(`${s.url}/4`);
    expect((await drain(result.body)).bytes).toBe(4);

    const internal = await server();
    const front = await server((_req, res) => {
      res.writeHead(302, { location: `${internal.url}/secret` }).end();
    });
    const policy: OutboundPolicy = { allowPrivate: false, allowHttp: true, publicEndpoints: [`127.0.0.1:${front.port}`] };
    expect(await reasonOf(outboundStream({ url: front.url, timeoutMs: 5000, maxRedirects: 3, maxBytes: MB, policy }))).toBe("private_address");
    expect(internal.connections).toBe(0);
  });

  it("refuses http and private addresses under the default rules", async () => {
    const s = await server();
    const strict: OutboundPolicy = { allowPrivate: false, allowHttp: false };
    expect(await reasonOf(outboundStream({ url: s.url, timeoutMs: 5000, maxRedirects: 3, maxBytes: MB, policy: strict }))).toBe("scheme_not_allowed");
    expect(await reasonOf(outboundStream({ url: `https://127.0.0.1:${s.port}/`, timeoutMs: 5000, maxRedirects: 3, maxBytes: MB, policy: strict }))).toBe(
      "private_address",
    );
    expect(s.connections).toBe(0);
  });
});
