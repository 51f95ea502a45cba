/**
 * The embedded services against the clients the app really uses: `pg` (directly and through
 * Prisma's adapter-pg) for PGlite, the AWS SDK and a presigned URL fetched like a browser would
 * for s3rver. Each test starts its own servers in a temporary directory on free ports.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { PrismaPg } from "@prisma/adapter-pg";
import type { ArgType, SqlQuery } from "@prisma/driver-adapter-utils";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { startEmbeddedPostgres, startEmbeddedS3 } from "./embedded.ts";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "cp-embedded-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("startEmbeddedPostgres", () => {
  it("serves pg with concurrent clients, parameterized queries, errors and transactions", async () => {
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg-concurrency"), port: 0 });
    const pool = new pg.Pool({ connectionString: server.url, max: 8 });
    try {
      expect(server.url).toBe(`postgresql://postgres@127.0.0.1:${server.port}/postgres`);
      await pool.query("CREATE TABLE ledger (id serial PRIMARY KEY, amount int NOT NULL)");

      // A transaction that stays open while others queue up behind it is what used to interleave
      // other connections' extended-protocol messages (see serializeExtendedProtocol).
      const transfer = async (i: number, commit: boolean): Promise<void> => {
        const client = await pool.connect();
        try {
          await client.query("BEGIN");
          await client.query("INSERT INTO ledger (amount) VALUES ($1)", [i]);
          await new Promise((resolve) => setTimeout(resolve, 5));
          await client.query("INSERT INTO ledger (amount) VALUES ($1)", [-i]);
          await client.query(commit ? "COMMIT" : "ROLLBACK");
        } finally {
          client.release();
        }
      };
      const results = await Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          if (i % 10 === 0) await transfer(i, i % 20 !== 0);
          if (i % 7 === 0) {
            await expect(pool.query("SELECT $1::int / 0", [i])).rejects.toThrow("division by zero");
          }
          // Different text per query: a mix-up of unnamed statements would show in `b`.
          const { rows } = await pool.query<{ a: number; b: number }>(`SELECT $1::int AS a, ${i} AS b`, [i]);
          return rows[0];
        }),
      );
      results.forEach((row, i) => expect(row).toEqual({ a: i, b: i }));

      const { rows } = await pool.query<{ n: number; total: number }>("SELECT count(*)::int AS n, coalesce(sum(amount), 0)::int AS total FROM ledger");
      expect(rows[0]).toEqual({ n: 30, total: 0 }); // 15 committed transfers of two rows each
    } finally {
      await pool.end();
      await server.stop();
    }
  });

  it("works through Prisma's adapter-pg, including transactions", async () => {
    const server = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg-prisma"), port: 0 });
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
      // Meanwhile, queries outside the transaction on other connections wait for it.
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

  it("keeps its data across a stop and start in the same directory", async () => {
    const dataDir = path.join(dir, "pg-persistent");
    const first = await startEmbeddedPostgres({ dataDir, port: 0 });
    const client = new pg.Client({ connectionString: first.url });
    await client.connect();
    await client.query("CREATE TABLE kept (value text NOT NULL)");
    await client.query("INSERT INTO kept (value) VALUES ($1)", ["survives a restart"]);
    await client.end();
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
