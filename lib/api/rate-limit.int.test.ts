import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { verifyAccessTokenClaims } from "@/lib/oauth/access-token";
import { createApiContext } from "@/lib/test-support/fixtures";
import { admitRequest } from "./rate-limit";

// admitRequest: one statement per batch of a grant's concurrent requests; each request still gets
// its own place in the day's count (D7). Across processes: scripts/test/two-instances.int.test.ts.

describe("admitRequest", () => {
  it("gives 40 concurrent requests of one grant the counts 1 to 40, once each, and stores 40", async () => {
    const { client, token } = await createApiContext();
    const claims = await verifyAccessTokenClaims(token);
    const admissions = await Promise.all(Array.from({ length: 40 }, () => admitRequest(claims)));
    expect(admissions.map((a) => a?.rate.count).sort((a, b) => a! - b!)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(admissions.every((a) => a?.clientId === client.id && a.role === "admin" && a.apiAccess)).toBe(true);
    const [counter] = await db.rateLimitCounter.findMany({ where: { clientId: client.id } });
    expect(counter?.count).toBe(40);
    // Later requests go on from there.
    expect((await admitRequest(claims))?.rate.count).toBe(41);
  });

  it("admits and counts nothing once the grant is revoked, 10 requests at once included", async () => {
    const { client, grant, token } = await createApiContext();
    const claims = await verifyAccessTokenClaims(token);
    expect((await admitRequest(claims))?.rate.count).toBe(1);
    await db.oAuthGrant.update({ where: { id: grant.id }, data: { revokedAt: new Date() } });
    const after = await Promise.all(Array.from({ length: 10 }, () => admitRequest(claims)));
    expect(after).toEqual(Array(10).fill(null));
    expect((await db.rateLimitCounter.findMany({ where: { clientId: client.id } }))[0]?.count).toBe(1);
  });

  it("reports the organization gate (D8) without refusing: the wrapper answers 429 before 403", async () => {
    const { org, token } = await createApiContext();
    await db.organization.update({ where: { id: org.id }, data: { apiEnabled: false } });
    const admission = await admitRequest(await verifyAccessTokenClaims(token));
    expect(admission?.apiAccess).toBe(false);
    expect(admission?.rate.count).toBe(1);
  });
});
