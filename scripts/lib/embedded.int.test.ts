/**
 * The embedded services against the clients the app really uses: `pg` and Prisma's adapter-pg
 * for the embedded PostgreSQL server, the AWS SDK and a presigned URL fetched like a browser would
 * for s3rver. Each test starts its own servers in a temporary directory on free ports.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { PrismaPg } from "@prisma/adapter-pg";
import type { ArgType, SqlQuery } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startEmbeddedS3 } from "./embedded.ts";
import { allowServerInto, startEmbeddedPostgres } from "./embedded-postgres.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "cp-embedded-test-"));
  allowServerInto(dir);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function until(condition: () => Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return condition();
}

describe("startEmbeddedPostgres", () => {
  it("gives every connection its own session: named prepared statements and isolated transactions", async () => {
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg-sessions"), port: 0, durable: false });
    const pool = new pg.Pool({ connectionString: server.url, max: 8 });
    // The server's shutdown at the end reaches clients the pool is still closing.
    pool.on("error", () => undefined);
    try {
      expect(server.url).toBe(`postgresql://postgres@127.0.0.1:${server.port}/postgres`);
      const { rows: version } = await pool.query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
      expect(Number(version[0]!.v)).toBeGreaterThanOrEqual(160000);
      await pool.query("CREATE TABLE ledger (id serial PRIMARY KEY, amount int NOT NULL)");

      // The same named statement prepared on several connections at once (one shared session
      // would answer "prepared statement already exists").
      const named = await Promise.all(
        Array.from({ length: 40 }, (_, i) => pool.query<{ a: number }>({ name: "same_name", text: "SELECT $1::int AS a", values: [i] })),
      );
      named.forEach((result, i) => expect(result.rows[0]!.a).toBe(i));

      // An uncommitted row is invisible to other connections, and a row lock makes them wait.
      const a = await pool.connect();
      const b = await pool.connect();
      try {
        await a.query("BEGIN");
        await a.query("INSERT INTO ledger (amount) VALUES (1)");
        expect((await b.query("SELECT count(*)::int AS n FROM ledger")).rows[0]).toEqual({ n: 0 });
        await b.query("BEGIN");
        await b.query("SET LOCAL lock_timeout = '200ms'");
        await expect(b.query("LOCK TABLE ledger IN EXCLUSIVE MODE")).rejects.toThrow("lock timeout");
        await b.query("ROLLBACK");
        await a.query("COMMIT");
        expect((await b.query("SELECT count(*)::int AS n FROM ledger")).rows[0]).toEqual({ n: 1 });
      } finally {
        a.release();
        b.release();
      }
    } finally {
      await pool.end();
      await server.stop();
    }
    expect(await listening(server.port)).toBe(false);
  });

  it("works through Prisma's adapter-pg, including transactions", async () => {
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg-prisma"), port: 0, durable: false });
    const adapter = await new PrismaPg({ connectionString: server.url }).connect();
    // What Prisma's query engine sends: typed arguments, and COMMIT/ROLLBACK as queries of their
    // own (adapter-pg's commit() and rollback() only release the connection).
    const int: ArgType = { scalarType: "int", arity: "scalar" };
    const text: ArgType = { scalarType: "string", arity: "scalar" };
    const insert = (id: number): SqlQuery => ({
      sql: "INSERT INTO note (id, body) VALUES ($1, $2)",
      args: [id, `note ${id}`],
      argTypes: [int, text],
    });
    const statement = (sql: string): SqlQuery => ({ sql, args: [], argTypes: [] });
    try {
      await adapter.executeScript("CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL)");

      const tx = await adapter.startTransaction();
      await tx.executeRaw(insert(1));
      // Meanwhile, inserts outside the transaction on other connections go ahead.
      const outside = Promise.all([3, 4, 5].map((id) => adapter.executeRaw(insert(id))));
      await tx.executeRaw(insert(2));
      await tx.executeRaw(statement("COMMIT"));
      await tx.commit();
      expect(await outside).toEqual([1, 1, 1]);

      const rolledBack = await adapter.startTransaction();
      await rolledBack.executeRaw(insert(6));
      await rolledBack.executeRaw(statement("ROLLBACK"));
      await rolledBack.rollback();

      const result = await adapter.queryRaw({ sql: "SELECT id, body FROM note WHERE id > $1 ORDER BY id", args: [0], argTypes: [int] });
      expect(result.columnNames).toEqual(["id", "body"]);
      expect(result.rows.map((r) => r[0])).toEqual([1, 2, 3, 4, 5]);
      expect(result.rows[0]?.[1]).toBe("note 1");
    } finally {
      await adapter.dispose();
      await server.stop();
    }
  });

  it("keeps its data across a stop and start in the same directory, and refuses a second server on it", async () => {
    const dataDir = path.join(dir, "pg-persistent");
    const first = await startEmbeddedPostgres({ dataDir, port: 0 });
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    await client.query("CREATE TABLE kept (value text NOT NULL)");
    await client.query("INSERT INTO kept (value) VALUES ($1)", ["survives a restart"]);
    await client.end();
    await expect(startEmbeddedPostgres({ dataDir, port: 0 })).rejects.toThrow(/already running on/);
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir, port: 0 });
    const again = new pg.Client({ connectionString: second.url });
    try {
      await again.connect();
      const { rows } = await again.query<{ value: string }>("SELECT value FROM kept");
      expect(rows).toEqual([{ value: "survives a restart" }]);
    } finally {
      await again.end();
      await second.stop();
    }
  });

  it("stops when the process that started it is killed", async () => {
    const dataDir = path.join(dir, "pg-orphan");
    // A separate Node process starts a server, prints its port, then is killed with SIGKILL
    // (no exit handler runs): the server must not be left running.
    const serverModule = path.join(import.meta.dirname, "embedded-postgres.ts");
    const script = `import { startEmbeddedPostgres } from ${JSON.stringify(serverModule)};
      const s = await startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)}, port: 0, durable: false });
      console.log("port=" + s.port);
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    const port = await new Promise<number>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const match = /port=(\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      child.once("exit", (code) => reject(new Error(`the starter exited first (${code})`)));
    });
    expect(await listening(port)).toBe(true);
    child.kill("SIGKILL");
    expect(await until(async () => !(await listening(port)), 15_000)).toBe(true);
  });
});

describe("startEmbeddedS3", () => {
  it("creates the bucket and serves the SDK and presigned URLs", async () => {
    const s3 = await startEmbeddedS3({ dataDir: path.join(dir, "s3"), port: 0, bucket: "test-bucket" });
    // Configured like lib/storage/s3.ts configures the app's client.
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      forcePathStyle: true,
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
    try {
      expect(s3.endpoint).toBe(`http://127.0.0.1:${s3.port}`);
      expect(s3.bucket).toBe("test-bucket");

      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: "a/b.txt", Body: "hello", ContentType: "text/plain" }));
      const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: "a/b.txt" }));
      expect(head.ContentLength).toBe(5);
      expect(head.ContentType).toBe("text/plain");

      // A browser upload: presigned PUT, then plain fetch with the bytes.
      const bytes = new Uint8Array([0, 1, 2, 250, 251, 252]);
      const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: s3.bucket, Key: "uploads/raw.bin", ContentType: "application/octet-stream" }), {
        expiresIn: 300,
      });
      const put = await fetch(url, { method: "PUT", body: bytes, headers: { "Content-Type": "application/octet-stream" } });
      expect(put.status, await put.clone().text()).toBe(200);

      const uploaded = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: "uploads/raw.bin" }));
      expect(uploaded.ContentLength).toBe(bytes.length);
      // And a presigned download returns the same bytes.
      const getUrl = await getSignedUrl(client, new GetObjectCommand({ Bucket: s3.bucket, Key: "uploads/raw.bin" }));
      const got = await fetch(getUrl);
      expect(new Uint8Array(await got.arrayBuffer())).toEqual(bytes);

      // CORS for uploads from the app's origin (the browser's preflight).
      const preflight = await fetch(url, {
        method: "OPTIONS",
        headers: { Origin: "http://127.0.0.1:3100", "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "content-type" },
      });
      expect(preflight.status).toBe(200);
      expect(preflight.headers.get("access-control-allow-methods")).toContain("PUT");
    } finally {
      client.destroy();
      await s3.stop();
    }

    // Restarting on the same directory keeps the bucket and its objects.
    const again = await startEmbeddedS3({ dataDir: path.join(dir, "s3"), port: 0, bucket: "test-bucket" });
    const client2 = new S3Client({
      endpoint: again.endpoint,
      region: again.region,
      credentials: { accessKeyId: again.accessKeyId, secretAccessKey: again.secretAccessKey },
      forcePathStyle: true,
    });
    try {
      const head = await client2.send(new HeadObjectCommand({ Bucket: again.bucket, Key: "a/b.txt" }));
      expect(head.ContentLength).toBe(5);
    } finally {
      client2.destroy();
      await again.stop();
    }
  });
});
