// PostgreSQL wire-protocol counting proxy: LISTEN -> UPSTREAM, bytes passed through unchanged.
// Counts, per window, the round trips (backend ReadyForQuery 'Z' messages: one per Sync or simple
// Query), the statements (Parse 'P' / Query 'Q') and their SQL, and BEGIN/COMMIT.
// GET http://127.0.0.1:CTRL/stats?reset=1 returns the counters since the last reset (and resets).
// Usage: LISTEN=5503 UPSTREAM=127.0.0.1:5432 CTRL=5504 node pg-roundtrip-proxy.mjs
import net from "node:net";
import http from "node:http";
const [uh, up] = (process.env.UPSTREAM ?? "127.0.0.1:5432").split(":");
let stats = fresh();
function fresh() {
  return { since: Date.now(), roundTrips: 0, parses: 0, queries: 0, sql: {} };
}
function note(sql) {
  const k = sql
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, Number(process.env.SQL_CHARS ?? 400));
  stats.sql[k] = (stats.sql[k] ?? 0) + 1;
}
function parser(onMsg, untypedFirst) {
  let buf = Buffer.alloc(0);
  let untyped = untypedFirst;
  return (chunk) => {
    buf = Buffer.concat([buf, chunk]);
    for (;;) {
      if (untyped > 0) {
        // startup / SSLRequest: int32 len, no type byte
        if (buf.length < 4) return;
        const len = buf.readInt32BE(0);
        if (buf.length < len) return;
        const code = buf.readInt32BE(4);
        buf = buf.subarray(len);
        untyped--;
        if (code === 80877103) untyped++; // SSLRequest: startup follows
        onMsg("startup", null, code);
        continue;
      }
      if (buf.length < 5) return;
      const len = buf.readInt32BE(1);
      if (buf.length < len + 1) return;
      onMsg(String.fromCharCode(buf[0]), buf.subarray(5, len + 1));
      buf = buf.subarray(len + 1);
    }
  };
}
net
  .createServer((client) => {
    const server = net.connect(Number(up), uh);
    let sslAsked = false,
      sslAnswered = false;
    const fromClient = parser((t, body, code) => {
      if (t === "startup" && code === 80877103) sslAsked = true;
      if (t === "P") {
        stats.parses++;
        const nameEnd = body.indexOf(0);
        note(body.subarray(nameEnd + 1, body.indexOf(0, nameEnd + 1)).toString());
      }
      if (t === "Q") {
        stats.queries++;
        note(body.subarray(0, body.length - 1).toString());
      }
    }, 1);
    let fromServer = parser((t) => {
      if (t === "Z") stats.roundTrips++;
    }, 0);
    client.on("data", (d) => {
      fromClient(d);
      server.write(d);
    });
    server.on("data", (d) => {
      if (sslAsked && !sslAnswered) {
        sslAnswered = true;
        d = d;
        if (d.length === 1) return client.write(d);
        fromServer(d.subarray(1));
        return client.write(d);
      }
      fromServer(d);
      client.write(d);
    });
    const close = () => {
      client.destroy();
      server.destroy();
    };
    client.on("error", close);
    server.on("error", close);
    client.on("close", close);
    server.on("close", close);
  })
  .listen(Number(process.env.LISTEN ?? 5503), "127.0.0.1");
http
  .createServer((req, res) => {
    const out = { ...stats, ms: Date.now() - stats.since };
    if (req.url.includes("reset=1")) stats = fresh();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(out, null, 1));
  })
  .listen(Number(process.env.CTRL ?? 5504), "127.0.0.1", () => console.log("proxy ready"));
