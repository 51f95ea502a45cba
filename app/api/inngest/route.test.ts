import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/api/inngest/route";
import { functions } from "@/inngest/functions";
import { resetEnvForTests } from "@/lib/env";

// The serve() endpoint in dev mode, syncing with a loopback server standing in for the Dev Server.

type Registration = { url: string; functions: { id: string; triggers: unknown[] }[] };

let server: Server;
const registrations: Registration[] = [];
const savedEnv = { ...process.env };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      if (req.method === "POST" && req.url?.startsWith("/fn/register")) {
        registrations.push(JSON.parse(body) as Registration);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ status: 200, modified: true }));
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // What env() requires besides Inngest's variables; nothing here connects to them.
  process.env.DATABASE_URL = "postgresql://unused@127.0.0.1:1/unused";
  process.env.AUTH_SECRET = "unit-test-secret-unit-test-secret-0123";
  process.env.APP_ENCRYPTION_KEY = "0".repeat(64);
  process.env.INNGEST_DEV = "1";
  process.env.INNGEST_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  delete process.env.INNGEST_EVENT_KEY;
  resetEnvForTests();
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  process.env = savedEnv;
  resetEnvForTests();
});

describe("/api/inngest", () => {
  it("registers the app's functions with Inngest on PUT", async () => {
    const res = await PUT(new NextRequest("http://localhost:3000/api/inngest", { method: "PUT" }), {});
    expect(res.status).toBe(200);
    expect(registrations).toHaveLength(1);
    const reg = registrations[0];
    expect(reg?.url).toBe("http://localhost:3000/api/inngest");
    expect(reg?.functions.map((f) => f.id)).toContain("client-portals-events-relay-sweep");
    expect(reg?.functions.find((f) => f.id === "client-portals-events-relay-sweep")?.triggers).toEqual([{ cron: "* * * * *" }]);
  });

  it("describes itself on GET", async () => {
    const res = await GET(new NextRequest("http://localhost:3000/api/inngest"), {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as { function_count: number; mode: string };
    expect(body).toMatchObject({ function_count: functions.length, mode: "dev" });
  });
});
