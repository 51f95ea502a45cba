/**
 * The integration tier's plumbing: what global-setup.ts started reaches the test worker's
 * process.env (through integration-env.ts), the database is migrated, and the bucket exists.
 */
import { HeadBucketCommand, S3Client } from "@aws-sdk/client-s3";
import pg from "pg";
import { expect, it } from "vitest";

import { listMigrationNames } from "../lib/schema-engine.ts";

function required(name: string): string {
  const value = process.env[name];
  expect(value, `${name} is set for integration tests`).toBeTruthy();
  return value ?? "";
}

it("sets the database, S3 and secrets in process.env", () => {
  expect(required("DATABASE_URL")).toMatch(/^postgresql:\/\//);
  expect(["postgres", "embedded"]).toContain(required("TEST_DATABASE"));
  // Its own database on the server, never the one DATABASE_URL named: the run's, or the run's copy
  // for this worker.
  expect(new URL(required("DATABASE_URL")).pathname).toMatch(/^\/client_portals_test_[0-9a-f]{8}(_\d+)?$/);
  expect(required("S3_ENDPOINT")).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(required("S3_FORCE_PATH_STYLE")).toBe("true");
  expect(required("AUTH_SECRET").length).toBeGreaterThanOrEqual(32);
  expect(required("APP_ENCRYPTION_KEY")).toMatch(/^[0-9a-f]{64}$/);
});

it("gives each worker a database and a bucket of its own", () => {
  const worker = Number(process.env["VITEST_POOL_ID"]);
  expect(worker).toBeGreaterThanOrEqual(1);
  const [database, bucket] = [new URL(required("DATABASE_URL")).pathname, required("S3_BUCKET")];
  if (worker === 1) {
    expect(database).toMatch(/_[0-9a-f]{8}$/);
    expect(bucket).toBe("client-portals-test");
  } else {
    expect(database).toMatch(new RegExp(`_[0-9a-f]{8}_${worker}$`));
    expect(bucket).toBe(`client-portals-test-${worker}`);
  }
});

it("has every migration applied", async () => {
  const client = new pg.Client({ connectionString: required("DATABASE_URL") });
  await client.connect();
  try {
    const { rows } = await client.query<{ migration_name: string }>(
      "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name",
    );
    expect(rows.map((r) => r.migration_name)).toEqual(await listMigrationNames());
  } finally {
    await client.end();
  }
});

it("has the bucket", async () => {
  const s3 = new S3Client({
    endpoint: required("S3_ENDPOINT"),
    region: required("S3_REGION"),
    credentials: { accessKeyId: required("S3_ACCESS_KEY_ID"), secretAccessKey: required("S3_SECRET_ACCESS_KEY") },
    forcePathStyle: true,
  });
  try {
    await expect(s3.send(new HeadBucketCommand({ Bucket: required("S3_BUCKET") }))).resolves.toBeDefined();
  } finally {
    s3.destroy();
  }
});
