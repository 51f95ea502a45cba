/**
 * The embedded S3 the app needs so that `npm run dev`, the integration tests and the end-to-end
 * server run on a machine with nothing but Node.js: s3rver, a small S3-compatible HTTP server
 * keeping objects in a directory (PostgreSQL: embedded-postgres.ts). A development tool only;
 * production configures real services through the environment.
 */
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

// --- S3 (s3rver) ---------------------------------------------------------------------------------

export interface EmbeddedS3 {
  /** `http://127.0.0.1:<port>`; clients must use path-style addressing. */
  endpoint: string;
  port: number;
  accessKeyId: string;
  secretAccessKey: string;
  /** The first of the buckets it was started with. */
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
 * bucket (or each of `buckets`) is created on start if the directory doesn't have it yet; existing
 * objects are kept.
 */
export async function startEmbeddedS3(options: { dataDir: string; port: number } & ({ bucket: string } | { buckets: string[] })): Promise<EmbeddedS3> {
  const buckets = "buckets" in options ? options.buckets : [options.bucket];
  await mkdir(options.dataDir, { recursive: true });
  // s3rver is CommonJS without types; require keeps the cast in one place.
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverConstructor;
  const server = new S3rver({
    address: "127.0.0.1",
    port: options.port, // 0: the OS picks a free port, read back from run()
    silent: true,
    directory: options.dataDir,
    configureBuckets: buckets.map((name) => ({ name, configs: [CORS_CONFIG] })),
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
    bucket: buckets[0]!,
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
