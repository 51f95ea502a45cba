import { PrismaPg } from "@prisma/adapter-pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db, useClientForTests } from "@/lib/db";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { portalApi } from "@/test/routes/portal-api";
import { createApiContext } from "@/lib/test-support/fixtures";
import { startPgFaultProxy, type PgFaultProxy } from "@/lib/test-support/pg-fault-proxy";

// D6 under a real database fault: the connection to PostgreSQL is cut right
// after the server committed, so the request fails without knowing its work was done. Retries
// with the same key and body must return the first result and never create a second portal.

describe("Idempotency-Key when the database connection breaks at a commit", () => {
  let proxy: PgFaultProxy;
  let client: PrismaClient;
  let restoreClient: () => void;

  beforeAll(async () => {
    proxy = await startPgFaultProxy(process.env["DATABASE_URL"]!);
    client = new PrismaClient({ adapter: new PrismaPg({ connectionString: proxy.url, max: 4 }) });
  });
  afterAll(async () => {
    await client.$disconnect();
    await proxy.close();
  });

  // The n-th COMMIT of the request is the one cut: with the outcome stored after the work
  // (the defect) the first COMMIT is the portal's own transaction.
  it.each([1, 2, 3])("cut at COMMIT %i: one portal and one portal.created for any number of retries", async (n) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const ctx = await createApiContext();
    const name = `Fault ${n} ${ctx.org.id}`;
    const key = `fault-${n}`;
    const api = portalApi(ctx.token);
    restoreClient = useClientForTests(client);
    try {
      proxy.cutAtCommit(n);
      const first = await api.create({ name }, { "Idempotency-Key": key });
      // The request failed (or, with fewer commits than n, went through): never a 4xx.
      expect(first.status === 201 || first.status >= 500).toBe(true);
      // The fault really happened: the first COMMIT of every version of this request was cut, and
      // the lost connection is answered as the database being unavailable (503 with Retry-After).
      if (n === 1) expect([first.status, first.headers.get("retry-after"), proxy.down]).toEqual([503, "5", true]);
      proxy.restore();

      const retries = [];
      for (let i = 0; i < 4; i++) retries.push(await api.create({ name }, { "Idempotency-Key": key }));
      expect(retries.map((r) => r.status)).toEqual([201, 201, 201, 201]);
      expect(new Set(retries.map((r) => r.text)).size).toBe(1);
      expect(retries.slice(1).every((r) => r.headers.get("idempotent-replayed") === "true")).toBe(true);
      if (first.status === 201) expect(retries[0]!.text).toBe(first.text);
    } finally {
      proxy.restore();
      restoreClient();
    }
    const portals = await db.portal.findMany({ where: { orgId: ctx.org.id, name }, select: { id: true } });
    expect(portals).toHaveLength(1);
    expect(await db.event.count({ where: { orgId: ctx.org.id, type: "portal.created" } })).toBe(1);
  });
});
