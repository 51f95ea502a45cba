import net from "node:net";

// A loopback TCP proxy in front of PostgreSQL that a test can break at a chosen moment of the wire
// protocol: `cutAtCommit(n)` lets the n-th COMMIT reach the server and then drops its answer and
// every connection, so the transaction is committed while the client sees a lost connection; new
// connections are refused until `restore()`. A real fault, not a mocked client.

export interface PgFaultProxy {
  /** The DATABASE_URL to give a client so that it goes through the proxy. */
  url: string;
  /** The n-th COMMIT acknowledged by the server from now on is the last thing that gets through. */
  cutAtCommit(n?: number): void;
  /** True once a cut has happened (until restore). */
  readonly down: boolean;
  restore(): void;
  close(): Promise<void>;
}

export async function startPgFaultProxy(databaseUrl: string): Promise<PgFaultProxy> {
  const upstream = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  let commitsLeft = 0;
  let down = false;

  const cut = () => {
    down = true;
    for (const s of sockets) s.destroy();
    sockets.clear();
  };

  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const pg = net.connect(Number(upstream.port || 5432), upstream.hostname);
    sockets.add(client).add(pg);
    let pending = Buffer.alloc(0);
    client.on("data", (d) => pg.write(d));
    // Server to client, message by message (type byte, int32 length), so an answer can be held back.
    pg.on("data", (chunk) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5) {
        const length = pending.readInt32BE(1) + 1;
        if (pending.length < length) break;
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        if (commitsLeft > 0 && message[0] === 0x43 /* CommandComplete */ && message.subarray(5).toString("latin1").startsWith("COMMIT")) {
          commitsLeft -= 1;
          if (commitsLeft === 0) return cut();
        }
        client.write(message);
      }
    });
    const close = () => {
      client.destroy();
      pg.destroy();
      sockets.delete(client);
      sockets.delete(pg);
    };
    client.on("error", close).on("close", close);
    pg.on("error", close).on("close", close);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);

  return {
    url: url.toString(),
    cutAtCommit(n = 1) {
      commitsLeft = n;
    },
    get down() {
      return down;
    },
    restore() {
      commitsLeft = 0;
      down = false;
    },
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
