import { afterAll, beforeAll, expect, it } from "vitest";
import { portalApi } from "@/test/routes/portal-api";
import { contentionStats, db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { verifyPartnerLink } from "@/lib/partner/verify-link";
import { getUserViewer } from "@/lib/access/viewer";
import { connectPartner } from "@/lib/partner/connection";
import { createApiContext, createTestPortal } from "@/lib/test-support/fixtures";
import { SANDBOX_API_KEY, startPartnerSandbox, type PartnerSandbox } from "@/scripts/partner-sandbox";

// The partner id saved and cleared again at once through the API while the verification of the
// saved id writes its outcome: the request locks the portal and then the link, the verification
// writes the link and an audit row of the portal. Every answer is 200; the link ends `unlinked`.

const CYCLES = Number(process.env["PARTNER_LOOP_CYCLES"] ?? 100);
const savedEnv = { ...process.env };
let sandbox: PartnerSandbox;

beforeAll(async () => {
  sandbox = await startPartnerSandbox();
  process.env["OUTBOUND_ALLOW_PRIVATE"] = "true";
  resetEnvForTests();
});

afterAll(async () => {
  await sandbox.close();
  process.env = savedEnv;
  resetEnvForTests();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it(`partner id set and cleared ${CYCLES} times while its verification runs: never a 5xx, the link ends unlinked`, async () => {
  const ctx = await createApiContext({ scopes: ["portal:read", "portal:write"] });
  const admin = await getUserViewer(ctx.user.id, ctx.org.id);
  await connectPartner({ viewer: admin, apiUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
  const portal = await createTestPortal({ orgId: ctx.org.id });
  const api = portalApi(ctx.token);

  const before = { ...contentionStats };
  const statuses = new Map<number, number>();
  const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const verifications: Promise<{ failed: unknown } | null>[] = [];
  for (let cycle = 0; cycle < CYCLES; cycle++) {
    const set = await api.patch(portal.id, { externalSystemIds: { partner: "234567" } });
    count(set.status);
    // The job of partner.link_changed, as the engine runs it: concurrently with whatever comes next.
    verifications.push(
      verifyPartnerLink({ orgId: ctx.org.id, portalId: portal.id, customerId: "234567" }).then(
        () => null,
        (failed: unknown) => ({ failed }),
      ),
    );
    await sleep(Math.random() * 40);
    const clear = await api.patch(portal.id, { externalSystemIds: { partner: null } });
    count(clear.status);
  }
  const failures = (await Promise.all(verifications)).filter((v) => v !== null);
  process.stdout.write(
    `[partner loop] ${CYCLES} cycles: ${contentionStats.retries - before.retries} transactions retried, ${contentionStats.exhausted - before.exhausted} exhausted\n`,
  );

  expect(Object.fromEntries(statuses)).toEqual({ 200: CYCLES * 2 });
  expect(failures).toEqual([]);
  expect(contentionStats.exhausted).toBe(before.exhausted);
  const link = await db.partnerLink.findFirstOrThrow({ where: { orgId: ctx.org.id, portalId: portal.id } });
  expect(link.status).toBe("unlinked");
  // One verification_started and one unlinked row per cycle.
  const audit = await db.auditLog.groupBy({ by: ["action"], where: { orgId: ctx.org.id, portalId: portal.id }, _count: true });
  const byAction = Object.fromEntries(audit.map((a) => [a.action, a._count]));
  expect([byAction["partner_link.verification_started"], byAction["partner_link.unlinked"]]).toEqual([CYCLES, CYCLES]);
  const changed = await db.event.count({ where: { orgId: ctx.org.id, portalId: portal.id, type: "partner.link_changed" } });
  expect(changed).toBe(CYCLES * 2);
});
