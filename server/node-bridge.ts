import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

// node:http <-> the web Request/Response the route handlers speak, for the API requests the
// production server serves itself (server/index.ts).

/** Bodies up to this size (by Content-Length) are read whole before the handler runs; larger or
 * unsized ones are streamed, and the handler's own limit (API_MAX_BODY_BYTES) stops them. */
const BUFFERED_BODY_BYTES = 1024 * 1024;

async function readWhole(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  // A view of the same memory (Node's pooled buffers are plain ArrayBuffers), not a copy.
  return new Uint8Array(whole.buffer as ArrayBuffer, whole.byteOffset, whole.byteLength);
}

/**
 * The origin the client addressed, as Next.js gives it to route handlers (Host, and the scheme a
 * proxy in front says): the job engine's serve handler tells Inngest its own URL from it. A Host
 * that is not a plain host[:port] falls back to the server's own origin.
 */
function originOf(req: IncomingMessage, fallback: string): string {
  const host = req.headers.host;
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return fallback;
  const forwarded = String(req.headers["x-forwarded-proto"] ?? "")
    .split(",")[0]
    ?.trim();
  return `${forwarded === "https" ? "https" : "http"}://${host}`;
}

/** The web Request for `req`; `fallbackOrigin` is the server's own, for a request without a usable Host. */
export async function toWebRequest(req: IncomingMessage, fallbackOrigin: string): Promise<Request> {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const url = originOf(req, fallbackOrigin) + (req.url ?? "/");
  const method = req.method ?? "GET";
  if (method === "GET" || method === "HEAD") return new Request(url, { method, headers });
  const length = Number(req.headers["content-length"] ?? Number.NaN);
  if (Number.isFinite(length) && length <= BUFFERED_BODY_BYTES) return new Request(url, { method, headers, body: length === 0 ? null : await readWhole(req) });
  return new Request(url, { method, headers, body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: "half" } as RequestInit);
}

/** Writes a web Response to `res` (the body whole: the API answers JSON of bounded size). */
export async function sendWebResponse(res: ServerResponse, response: Response, head: boolean): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers["set-cookie"] = cookies;
  const body = head || response.body === null ? null : Buffer.from(await response.arrayBuffer());
  if (body && headers["content-length"] === undefined) headers["content-length"] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}
