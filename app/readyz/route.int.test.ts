import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetDbClientForTests } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { GET as healthz } from "../healthz/route";
import { GET as readyz } from "./route";

// Liveness and readiness against the real database and object store of the integration tier, with
// a loopback HTTP server standing in for the job engine (or not answering at all).

type Body = { status: string; failed?: string[]; checks: Record<string, { ok: boolean; ms: number; error?: string }> };

const savedEnv = { ...process.env };
const servers: Server[] = [];

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function configure(vars: Record<string, string>): void {
  Object.assign(process.env, vars);
  resetEnvForTests();
}

let engine = "";
beforeAll(async () => {
  engine = await listen((_req, res) => res.writeHead(200, { "Content-Type": "application/json" }).end("{}"));
});
afterEach(() => {
  process.env = { ...savedEnv };
  resetEnvForTests();
});
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

async function ready(): Promise<{ status: number; retryAfter: string | null; body: Body }> {
  const res = await readyz();
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Body };
}

describe("GET /healthz", () => {
  it("answers 200 without looking at anything", async () => {
    configure({ INNGEST_BASE_URL: "http://127.0.0.1:1", S3_BUCKET: "no-such-bucket" });
    const res = healthz();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });
});

describe("GET /readyz", () => {
  it("is ready when the database, the bucket and the job engine answer", async () => {
    configure({ INNGEST_BASE_URL: engine });
    const { status, body } = await ready();
    expect(status).toBe(200);
    expect(body.status).toBe("ready");
    expect(Object.keys(body.checks).sort()).toEqual(["database", "jobs", "storage"]);
    for (const check of Object.values(body.checks)) expect(check.ok).toBe(true);
  });

  it("a job engine that does not answer fails readiness within the time limit, naming it", async () => {
    const silent = await listen(() => undefined);
    configure({ INNGEST_BASE_URL: silent, READINESS_TIMEOUT_MS: "300" });
    const started = Date.now();
    const { status, retryAfter, body } = await ready();
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(status).toBe(503);
    expect(retryAfter).toBe("5");
    expect(body).toMatchObject({ status: "unavailable", failed: ["jobs"] });
    expect(body.checks["jobs"]?.error).toContain("no answer within 300 ms");
    expect(body.checks["database"]?.ok).toBe(true);
  });

  it("a job engine that refuses connections fails readiness", async () => {
    configure({ INNGEST_BASE_URL: "http://127.0.0.1:1" });
    const { status, body } = await ready();
    expect(status).toBe(503);
    expect(body.failed).toEqual(["jobs"]);
  });

  it("a missing bucket fails storage", async () => {
    configure({ INNGEST_BASE_URL: engine, S3_BUCKET: "no-such-bucket" });
    const { status, body } = await ready();
    expect(status).toBe(503);
    expect(body.failed).toEqual(["storage"]);
  });

  it("a database that cannot be reached fails database", async () => {
    configure({ INNGEST_BASE_URL: engine, DATABASE_URL: "postgresql://postgres@127.0.0.1:1/nothing" });
    // The next statement makes a client on the unreachable address.
    await resetDbClientForTests();
    try {
      const { status, body } = await ready();
      expect(status).toBe(503);
      expect(body.failed).toEqual(["database"]);
      expect(body.checks["database"]?.error).not.toContain("postgresql://");
    } finally {
      process.env = { ...savedEnv };
      resetEnvForTests();
      await resetDbClientForTests();
    }
  });
});
