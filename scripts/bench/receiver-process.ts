/**
 * The event-path benchmark's webhook receiver in a process of its own, as a subscriber's server is
 * elsewhere than the clients that write: it answers every POST 200 and keeps, per organization (the
 * path's first segment), each delivery's path, webhook-id and latency (arrival minus the event's
 * occurred_at). Prints `ready <url>` once listening; SIGTERM closes it.
 *
 *   GET /_count?org=ID            how many deliveries the organization's webhooks got
 *   GET /_arrivals?org=ID&from=N  those deliveries from the N-th on: [{ path, deliveryId, latencyMs }]
 *
 *   node --import tsx scripts/bench/receiver-process.ts
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface Arrival {
  path: string;
  deliveryId: string;
  latencyMs: number;
}

const arrivals = new Map<string, Arrival[]>();

const server = createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://receiver");
  if (req.method === "GET") {
    const list = arrivals.get(url.searchParams.get("org") ?? "") ?? [];
    const body = url.pathname === "/_count" ? list.length : list.slice(Number(url.searchParams.get("from") ?? 0));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const receivedAt = Date.now();
    const org = url.pathname.split("/")[1] ?? "";
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { occurred_at: string };
    let list = arrivals.get(org);
    if (!list) arrivals.set(org, (list = []));
    list.push({ path: url.pathname, deliveryId: String(req.headers["webhook-id"] ?? ""), latencyMs: receivedAt - Date.parse(body.occurred_at) });
    res.writeHead(200, { "content-type": "text/plain" }).end("answered 200");
  });
});

await new Promise<void>((resolve) => server.listen(Number(process.env["RECEIVER_PORT"] ?? 0), "127.0.0.1", resolve));
console.log(`ready http://127.0.0.1:${(server.address() as AddressInfo).port}`);
process.once("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
