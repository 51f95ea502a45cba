import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { OutboundError } from "@/lib/outbound/errors";

// Real loopback receivers for the outbound tests: they count TCP connections, so a test can
// show that a refused request never opened a socket.

interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

export interface TestServer {
  port: number;
  /** http://127.0.0.1:port */
  url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

const ok: Handler = (_req, res) => {
  res.end("ok");
};

function listen(server: Server, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
}

/**
 * A server on every loopback address it can get: "::" (IPv4 and IPv6) where the machine has
 * IPv6, else 127.0.0.1. The handler runs once the request body has arrived, unless `streaming`.
 */
export async function startServer(handler: Handler = ok, options: { streaming?: boolean } = {}): Promise<TestServer> {
  const requests: ReceivedRequest[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    if (options.streaming) {
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.alloc(0) });
      handler(req, res, Buffer.alloc(0));
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on("connection", () => {
    connections++;
  });
  try {
    await listen(server, "::");
  } catch {
    await listen(server, "127.0.0.1");
  }
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Servers started through the returned function are closed after each test of the calling file. */
export function serversClosedAfterEach(afterEach: (fn: () => Promise<void>) => void): typeof startServer {
  const servers: TestServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (...args) => {
    const s = await startServer(...args);
    servers.push(s);
    return s;
  };
}

/** The OutboundError a promise rejects with; anything else fails the test. */
export async function outboundFailure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof OutboundError)) throw new Error(`expected an OutboundError, got ${String(error)}`);
  return error;
}
