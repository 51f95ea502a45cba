import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A stand-in for Inngest's event API (POST /e/<event key>) on loopback, for integration tests.
// It records what it is sent, and can refuse (500) or stop listening altogether.

type ReceivedEvent = {
  id: string;
  name: string;
  data: Record<string, unknown>;
  ts: number;
};

export type InngestReceiver = {
  /** Base URL to give the client (INNGEST_BASE_URL). */
  url: string;
  /** Every event accepted, in arrival order, repeats included. */
  events: ReceivedEvent[];
  /** Event keys seen in request paths. */
  keys: string[];
  /** Requests that got a 500. */
  refused: number;
  setRefusing(refusing: boolean): void;
  /** Answer accepted requests only after this many milliseconds. */
  setDelay(ms: number): void;
  /** Stop listening (connections are refused) until listen() is called again. */
  pause(): Promise<void>;
  /** Listen again, on the same port; does nothing while listening. */
  listen(): Promise<void>;
  close(): Promise<void>;
};

export async function startInngestReceiver(): Promise<InngestReceiver> {
  let refusing = false;
  let delayMs = 0;
  const receiver: InngestReceiver = {
    url: "",
    events: [],
    keys: [],
    refused: 0,
    setRefusing: (value) => {
      refusing = value;
    },
    setDelay: (ms) => {
      delayMs = ms;
    },
    pause: () => close(server),
    listen: () => listen(server, port),
    close: () => close(server),
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const match = /^\/e\/([^/?]+)/.exec(req.url ?? "");
      if (req.method !== "POST" || !match?.[1]) {
        res.writeHead(404).end();
        return;
      }
      if (refusing) {
        receiver.refused += 1;
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "refused by test", status: 500 }));
        return;
      }
      receiver.keys.push(decodeURIComponent(match[1]));
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ReceivedEvent[];
      receiver.events.push(...body);
      setTimeout(() => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ ids: body.map((e) => e.id), status: 200 }));
      }, delayMs);
    });
  });

  await listen(server, 0);
  const port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${port}`;
  return receiver;
}

function listen(server: Server, port: number): Promise<void> {
  if (server.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
}

function close(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve, reject) => {
    server.close((err) => (err ? reject(err) : resolve()));
    // Keep-alive sockets from the client would hold close() open.
    server.closeAllConnections();
  });
}
