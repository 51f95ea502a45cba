/**
 * Embedded stand-ins for the two external services the app needs, so that `npm run dev`, the
 * integration tests and the end-to-end server run on a machine with nothing but Node.js:
 *
 * - PostgreSQL: PGlite (Postgres compiled to wasm) with its data in a directory, served over the
 *   wire protocol by pglite-socket, so `pg`, Prisma's adapter-pg and the wasm schema engine
 *   connect to it exactly as they would to a real server.
 * - S3: s3rver, a small S3-compatible HTTP server keeping objects in a directory.
 *
 * Both are development tools only; production configures real services through the environment.
 */
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// --- PostgreSQL (PGlite) -------------------------------------------------------------------------

export interface EmbeddedPostgres {
  /** `postgresql://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * PGlite is a single Postgres backend: every connection shares one session. PGlite accepts any
 * user and database name in the startup message and always answers as user `postgres` in
 * database `postgres`, so those are the names in the URL (CREATE DATABASE "works" but connecting
 * to the new name still lands in `postgres`). Session state (SET, temp tables, named prepared
 * statements) is shared by all connections; Prisma and plain `pg` use none of it.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port: number }): Promise<EmbeddedPostgres> {
  await mkdir(options.dataDir, { recursive: true });
  const db = await PGlite.create({ dataDir: options.dataDir });
  const server = new PGLiteSocketServer({
    db: serializeExtendedProtocol(db),
    host: "127.0.0.1",
    port: options.port, // 0: the OS picks a free port, read back below
    // pg.Pool and Prisma open several connections; the server multiplexes them onto PGlite.
    maxConnections: 20,
  });
  try {
    await server.start();
  } catch (error) {
    // Most likely EADDRINUSE. Close the database, or its directory stays held by this process.
    await db.close().catch(() => undefined);
    throw new Error(`embedded PostgreSQL could not listen on 127.0.0.1:${options.port}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  const port = Number(server.getServerConn().split(":").pop());

  let stopped: Promise<void> | undefined;
  return {
    url: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop: () =>
      (stopped ??= (async () => {
        await server.stop();
        // server.stop() detaches connections without awaiting them; a detach that finds its
        // connection inside a transaction still sends a ROLLBACK. Let those run before closing,
        // or they would reject against a closed database.
        await new Promise((resolve) => setTimeout(resolve, 50));
        await db.close();
      })()),
  };
}

// Frontend message types of the extended query protocol (and COPY data), which only make sense
// together with the messages that follow them from the same client, up to the next Sync.
const SEQUENCE_MESSAGES = new Set(["P", "B", "D", "E", "C", "H", "d"].map((c) => c.charCodeAt(0)));
const READY_FOR_QUERY = "Z".charCodeAt(0);
const SYNC_MESSAGE = new Uint8Array([0x53, 0, 0, 0, 4]); // 'S', length 4

/**
 * Makes pglite-socket's connection multiplexer safe for the extended query protocol.
 *
 * pglite-socket 0.2.17 queues each wire message separately and lets another connection's
 * messages in between unless `db.isInTransaction()` says a transaction block is open. The
 * extended protocol (Parse/Bind/Describe/Execute/Sync, which `pg` uses for every query with
 * parameters, so every Prisma query) is not a transaction block, yet its messages must not be
 * interleaved in a single backend: another client's Parse replaces the unnamed statement, and
 * after an error Postgres discards everything up to the next Sync, including other clients'
 * messages. With queued-up traffic (e.g. while one connection holds a transaction) that gave
 * empty results and hung clients.
 *
 * The fix relies on how the queue picks messages: while `isInTransaction()` is true it only runs
 * messages from the connection that ran the last one. So we report "in a transaction" from the
 * first message of a sequence until Postgres answers ReadyForQuery (after Sync, a simple Query,
 * or the startup message), which makes every sequence run as one unit.
 */
function serializeExtendedProtocol(db: PGlite): PGlite {
  let midSequence = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === "isInTransaction") {
        return () => midSequence || target.isInTransaction();
      }
      if (property === "execProtocolRawStream") {
        return async (message: Uint8Array, options: Parameters<PGlite["execProtocolRawStream"]>[1]) => {
          // The last 6 bytes written, across chunks: a ReadyForQuery message is 'Z', int32 5, status.
          let tail = new Uint8Array(0);
          const onRawData = (data: Uint8Array): void => {
            const joined = new Uint8Array(tail.length + data.length);
            joined.set(tail);
            joined.set(data, tail.length);
            tail = joined.slice(-6);
            options.onRawData(data);
          };
          try {
            await target.execProtocolRawStream(message, { ...options, onRawData });
          } catch (error) {
            // pglite-socket's queue stops for good after a throw; say why before it goes quiet.
            process.stderr.write(`[embedded-postgres] query failed inside PGlite: ${errorMessage(error)}\n`);
            throw error;
          }
          if (tail.length > 0) {
            midSequence = !(tail.length === 6 && tail[0] === READY_FOR_QUERY && tail[4] === 5);
          } else if (SEQUENCE_MESSAGES.has(message[0] ?? 0)) {
            // No answer at all: a message skipped after an error, still waiting for its Sync.
            midSequence = true;
          }
        };
      }
      if (property === "exec") {
        // Used by pglite-socket to roll back a disconnected client's transaction. If it dropped in
        // the middle of a sequence, end the sequence first: until a Sync, Postgres ignores it.
        return async (query: string, options?: Parameters<PGlite["exec"]>[1]) => {
          if (midSequence) {
            await target.execProtocolRaw(SYNC_MESSAGE);
            midSequence = false;
          }
          return target.exec(query, options);
        };
      }
      // Everything else straight from PGlite, bound to it: its methods use private fields.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

// --- S3 (s3rver) ---------------------------------------------------------------------------------

export interface EmbeddedS3 {
  /** `http://127.0.0.1:<port>`; clients must use path-style addressing. */
  endpoint: string;
  port: number;
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  region: string;
  stop(): Promise<void>;
}

// s3rver ships no type declarations; this is the part of its API used here.
interface S3rverOptions {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string; configs: string[] }>;
}
interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverConstructor = new (options: S3rverOptions) => S3rverInstance;

// Browsers upload and download straight to and from storage with presigned URLs, from the app's
// origin (any port in dev and tests), so the bucket allows them from anywhere; ETag is exposed
// because multipart uploads need it.
const CORS_CONFIG = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedMethod>DELETE</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * s3rver accepts requests signed with these fixed credentials (it checks the signature). The
 * bucket is created on start if the directory doesn't have it yet; existing objects are kept.
 */
export async function startEmbeddedS3(options: { dataDir: string; port: number; bucket: string }): Promise<EmbeddedS3> {
  await mkdir(options.dataDir, { recursive: true });
  // s3rver is CommonJS without types; require keeps the cast in one place.
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverConstructor;
  const server = new S3rver({
    address: "127.0.0.1",
    port: options.port, // 0: the OS picks a free port, read back from run()
    silent: true,
    directory: options.dataDir,
    configureBuckets: [{ name: options.bucket, configs: [CORS_CONFIG] }],
  });
  let address: AddressInfo;
  try {
    address = await server.run();
  } catch (error) {
    throw new Error(`embedded S3 could not listen on 127.0.0.1:${options.port}: ${errorMessage(error)}`, { cause: error });
  }

  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    bucket: options.bucket,
    region: "us-east-1",
    stop: () => (stopped ??= server.close()),
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The application's S3 settings (lib/env.ts) for an embedded S3 server. */
export function s3Env(s3: EmbeddedS3): Record<string, string> {
  return {
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: "true",
  };
}
