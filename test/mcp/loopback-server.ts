import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// The route handlers an MCP client reaches, served by node:http on loopback: real HTTP between
// the SDK's client and our handlers, without a Next.js build. Each route is a web-standard
// handler; `params` are the dynamic segments, as Next.js passes them.

type LoopbackHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response> | Response;

export interface LoopbackRoute {
  method: string;
  /** A path pattern; `:name` matches one segment. */
  path: string;
  handler: LoopbackHandler;
}

/** The requests the server received, in order (method and path), for assertions. */
export interface LoopbackServer {
  url: string;
  received: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split("/");
  const got = path.split("/");
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = got[i] ?? "";
    if (part.startsWith(":")) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer | undefined> {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startLoopbackServer(port: number, routes: LoopbackRoute[]): Promise<LoopbackServer> {
  const received: LoopbackServer["received"] = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
      let response: Response;
      const found = routes.map((r) => ({ r, params: r.method === req.method ? match(r.path, url.pathname) : null })).find((m) => m.params);
      if (!found?.params) {
        response = Response.json({ error: "not_found", error_description: "Not found" }, { status: 404 });
      } else {
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
        const body = await bodyOf(req);
        const request = new Request(url, { method: req.method, headers, body: body ? new Uint8Array(body) : undefined });
        response = await found.r.handler(request, { params: Promise.resolve(found.params) });
      }
      received.push({ method: req.method ?? "", path: url.pathname, status: response.status });
      res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
      res.end(Buffer.from(await response.arrayBuffer()));
    })().catch((error: unknown) => {
      res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    received,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
