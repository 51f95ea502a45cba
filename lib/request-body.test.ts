import { createServer, request as httpRequest, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readCappedText } from "./request-body";

class TooLarge extends Error {}
const tooLarge = () => new TooLarge("too large");

/** A Request as a server builds one from the connection: the body streamed from node:http. */
function fromIncoming(incoming: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
  return new Request(`http://127.0.0.1${incoming.url}`, {
    method: incoming.method,
    headers,
    body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit & { duplex: "half" });
}

describe("readCappedText", () => {
  // A real HTTP server on loopback: each request's body is read with a bound of 8 bytes and the
  // outcome answered as text, so declared and chunked bodies arrive as a client really sends them.
  let url = "";
  const server = createServer((incoming, outgoing) => {
    readCappedText(fromIncoming(incoming), 8, tooLarge).then(
      (text) => outgoing.end(`ok:${text}`),
      (error: unknown) => outgoing.end(error instanceof TooLarge ? "too large" : `error:${String(error)}`),
    );
  });
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (chunks: string[], headers: Record<string, string> = {}) =>
    new Promise<string>((resolve, reject) => {
      const req = httpRequest(url, { method: "POST", headers }, (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (text += c));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
      for (const chunk of chunks) req.write(chunk);
      req.end();
    });

  it("reads a body of declared length up to the bound, as UTF-8", async () => {
    expect(await send(["héllo"], { "content-length": String(Buffer.byteLength("héllo")) })).toBe("ok:héllo");
    expect(await send(["12345678"], { "content-length": "8" })).toBe("ok:12345678");
    expect(await send([], { "content-length": "0" })).toBe("ok:");
  });

  it("refuses a declared length above the bound before reading", async () => {
    expect(await send(["123456789"], { "content-length": "9" })).toBe("too large");
  });

  it("counts a chunked body as it arrives and refuses one byte more", async () => {
    expect(await send(["1234", "5678"], { "transfer-encoding": "chunked" })).toBe("ok:12345678");
    expect(await send(["1234", "56789"], { "transfer-encoding": "chunked" })).toBe("too large");
  });

  it("refuses a body longer than its declared length when the request was built in process", async () => {
    const built = new Request("http://x/", { method: "POST", headers: { "content-length": "3" }, body: "123456789" });
    await expect(readCappedText(built, 8, tooLarge)).rejects.toBeInstanceOf(TooLarge);
  });
});
