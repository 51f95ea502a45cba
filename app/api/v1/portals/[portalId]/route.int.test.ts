import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { portalApi } from "@/test/routes/portal-api";
import { connectTestPartner, createApiContext, createTestOrg, createTestPortal, createTestWorkflowStates } from "@/lib/test-support/fixtures";

const idsOf = (orgId: string, portalId: string) =>
  db.externalSystemId.findMany({ where: { orgId, portalId }, select: { system: true, systemKey: true, value: true }, orderBy: { systemKey: "asc" } });
const eventsOf = (orgId: string) => db.event.findMany({ where: { orgId }, orderBy: [{ createdAt: "asc" }, { type: "asc" }] });
/** The portals' history (the organization's own rows, such as the OAuth client's creation, left out). */
const auditOf = (orgId: string) => db.auditLog.findMany({ where: { orgId, portalId: { not: null } }, orderBy: [{ createdAt: "asc" }, { action: "asc" }] });

describe("GET /api/v1/portals/{portalId}", () => {
  it("returns the Portal with counters, last activity, web link and partner_link", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const portal = await createTestPortal({ orgId: ctx.org.id, name: "Acme", archived: true });
    await db.task.create({ data: { orgId: ctx.org.id, portalId: portal.id, title: "t", status: "Done" } });
    const res = await portalApi(ctx.token).get(portal.id);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: portal.id,
      name: "Acme",
      archived: true,
      open_task_count: 0,
      done_task_count: 1,
      last_activity_at: null,
      partner_link: null,
      web_url: `http://localhost:3000/org/${ctx.org.id}/vault/${portal.id}/folder/main`,
    });
  });

  it("is 404 not_found for another organization's portal, a deleted portal, an unknown id and a malformed id", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read", "portal:write"] });
    const other = await createTestOrg();
    const foreign = await createTestPortal({ orgId: other.id });
    const deleted = await createTestPortal({ orgId: ctx.org.id, deletedAt: new Date() });
    const api = portalApi(ctx.token);
    for (const id of [foreign.id, deleted.id, crypto.randomUUID(), "not-a-uuid", "1"]) {
      const got = await api.get(id);
      expect([got.status, got.json.error]).toEqual([404, "not_found"]);
      const patched = await api.patch(id, { name: "Mine now" });
      expect([patched.status, patched.json.error]).toEqual([404, "not_found"]);
    }
    expect((await db.portal.findUniqueOrThrow({ where: { id: foreign.id } })).name).not.toBe("Mine now");
  });

  it("needs portal:read", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    expect((await portalApi(ctx.token).get(portal.id)).json.error).toBe("insufficient_scope");
  });
});

describe("PATCH /api/v1/portals/{portalId}", () => {
  it("changes only the fields sent, with one audit row per change and no event", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const portal = await createTestPortal({ orgId: ctx.org.id, name: "Old", tags: ["a"] });
    const api = portalApi(ctx.token);

    const renamed = await api.patch(portal.id, { name: "  New  " });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ name: "New", tags: ["a"], archived: false });

    const tagged = await api.patch(portal.id, { tags: ["b", "b", " c "] });
    expect(tagged.json).toMatchObject({ name: "New", tags: ["b", "c"] });

    // Sending the current values changes nothing and writes nothing.
    expect((await api.patch(portal.id, { name: "New", tags: ["b", "c"], archived: false })).status).toBe(200);
    expect((await api.patch(portal.id, {})).status).toBe(200);

    const audit = await auditOf(ctx.org.id);
    expect(audit.map((a) => [a.action, a.portalId, a.actorUserId, a.oauthClientId, a.metadata])).toEqual([
      ["portal.renamed", portal.id, ctx.user.id, ctx.client.id, { from: "Old", to: "New" }],
      ["portal.tags_changed", portal.id, ctx.user.id, ctx.client.id, { from: ["a"], to: ["b", "c"] }],
    ]);
    expect(await eventsOf(ctx.org.id)).toEqual([]);
  });

  it("archives and restores; an archived portal is still listed, with archived: true", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write", "portal:read"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = portalApi(ctx.token);
    expect((await api.patch(portal.id, { archived: true })).json.archived).toBe(true);
    expect((await api.list()).json.map((p) => [p.id, p.archived])).toEqual([[portal.id, true]]);
    expect((await api.get(portal.id)).json.archived).toBe(true);
    expect((await api.patch(portal.id, { archived: false })).json.archived).toBe(false);
    expect((await auditOf(ctx.org.id)).map((a) => a.action)).toEqual(["portal.archived", "portal.restored"]);
    const bad = await api.patch(portal.id, { archived: "yes" });
    expect([bad.status, bad.json.error_description?.split(":")[0]]).toEqual([400, "archived"]);
  });

  it("sets the workflow state from a configured pair, firing portal.workflow_changed only on a real change", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const [onboarding, review] = await createTestWorkflowStates(ctx.org.id);
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = portalApi(ctx.token);

    const first = await api.patch(portal.id, { workflowStateId: onboarding!.id, workflowStateName: "Onboarding" });
    expect(first.json).toMatchObject({ workflowStateId: onboarding!.id, workflowStateName: "Onboarding" });
    await api.patch(portal.id, { workflowStateId: onboarding!.id, workflowStateName: "Onboarding" });
    const second = await api.patch(portal.id, { workflowStateId: review!.id, workflowStateName: "In review" });
    expect(second.json.workflowStateName).toBe("In review");

    const events = await eventsOf(ctx.org.id);
    expect(events.map((e) => [e.type, e.portalId, e.data])).toEqual([
      ["portal.workflow_changed", portal.id, { workflow_state_id: onboarding!.id, workflow_state_name: "Onboarding", previous_workflow_state_name: null }],
      ["portal.workflow_changed", portal.id, { workflow_state_id: review!.id, workflow_state_name: "In review", previous_workflow_state_name: "Onboarding" }],
    ]);
    expect((await auditOf(ctx.org.id)).map((a) => a.action)).toEqual(["portal.workflow_changed", "portal.workflow_changed"]);
  });

  it("refuses one workflow field alone, a mismatching pair, or another organization's state (400, nothing changed)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const [onboarding, review] = await createTestWorkflowStates(ctx.org.id);
    const other = await createTestOrg();
    const [foreign] = await createTestWorkflowStates(other.id, ["Onboarding"]);
    const portal = await createTestPortal({ orgId: ctx.org.id, workflowStateId: onboarding!.id });
    const api = portalApi(ctx.token);
    const cases: [unknown, string][] = [
      [{ workflowStateId: review!.id }, "workflowStateName"],
      [{ workflowStateName: "In review" }, "workflowStateId"],
      [{ workflowStateId: review!.id, workflowStateName: "Onboarding" }, "workflowStateName"],
      [{ workflowStateId: review!.id, workflowStateName: "in review" }, "workflowStateName"],
      [{ workflowStateId: foreign!.id, workflowStateName: "Onboarding" }, "workflowStateId"],
      [{ workflowStateId: "nope", workflowStateName: "Onboarding" }, "workflowStateId"],
      [{ workflowStateId: null, workflowStateName: null }, "workflowStateId"],
    ];
    for (const [body, field] of cases) {
      const res = await api.patch(portal.id, { name: "Changed", ...(body as object) });
      expect([res.status, res.json.error, res.json.error_description?.split(":")[0]]).toEqual([400, "invalid_request", field]);
    }
    const row = await db.portal.findUniqueOrThrow({ where: { id: portal.id } });
    expect([row.workflowStateId, row.name]).toEqual([onboarding!.id, portal.name]);
    expect(await eventsOf(ctx.org.id)).toEqual([]);
    expect(await auditOf(ctx.org.id)).toEqual([]);
  });

  it("needs portal:write", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const portal = await createTestPortal({ orgId: ctx.org.id, name: "Kept" });
    const res = await portalApi(ctx.token).patch(portal.id, { name: "Changed" });
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).name).toBe("Kept");
  });
});

describe("PATCH externalSystemIds", () => {
  it("merges: sent keys set, null deletes, omitted keys stay; the merged map is returned", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = portalApi(ctx.token);
    expect((await api.patch(portal.id, { externalSystemIds: { karbon: "K-1", xero: "X-1" } })).json.externalSystemIds).toEqual({ karbon: "K-1", xero: "X-1" });
    expect((await api.patch(portal.id, { externalSystemIds: { hubspot: "H-1" } })).json.externalSystemIds).toEqual({
      hubspot: "H-1",
      karbon: "K-1",
      xero: "X-1",
    });
    expect((await api.patch(portal.id, { externalSystemIds: { xero: null, unknown: null, karbon: "K-2" } })).json.externalSystemIds).toEqual({
      hubspot: "H-1",
      karbon: "K-2",
    });
    const audit = await auditOf(ctx.org.id);
    expect(audit.map((a) => [a.action, a.metadata])).toEqual([
      ["portal.external_ids_changed", { set: { karbon: "K-1", xero: "X-1" }, removed: [] }],
      ["portal.external_ids_changed", { set: { hubspot: "H-1" }, removed: [] }],
      ["portal.external_ids_changed", { set: { karbon: "K-2" }, removed: ["xero"] }],
    ]);
  });

  it('replaces a key differing only by case: {A: "1"} then {a: "2"} leaves one key spelled a', async () => {
    const ctx = await createApiContext({ scopes: ["portal:write", "portal:read"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = portalApi(ctx.token);
    expect((await api.patch(portal.id, { externalSystemIds: { A: "1" } })).json.externalSystemIds).toEqual({ A: "1" });
    expect((await api.patch(portal.id, { externalSystemIds: { a: "2" } })).json.externalSystemIds).toEqual({ a: "2" });
    expect(await idsOf(ctx.org.id, portal.id)).toEqual([{ system: "a", systemKey: "a", value: "2" }]);
    // A respelling alone is a change too; null with any spelling deletes.
    expect((await api.patch(portal.id, { externalSystemIds: { " Karbon ": "K" } })).json.externalSystemIds).toEqual({ a: "2", Karbon: "K" });
    expect((await api.patch(portal.id, { externalSystemIds: { A: null, KARBON: "K" } })).json.externalSystemIds).toEqual({ KARBON: "K" });
    expect((await api.get(portal.id)).json.externalSystemIds).toEqual({ KARBON: "K" });
  });

  it.each([
    [{ A: "1", a: "2" }, /^externalSystemIds\.a: Keys "A" and "a" differ only by case/],
    [{ partner: "12345" }, /^externalSystemIds\.partner: The partner id must be exactly 6 digits/],
    [{ PARTNER: "1234567" }, /^externalSystemIds\.PARTNER: /],
    [{ partner: "12345a" }, /^externalSystemIds\.partner: /],
    [{ karbon: "x".repeat(257) }, /^externalSystemIds\.karbon: Must be at most 256 characters/],
    [{ karbon: "" }, /^externalSystemIds\.karbon: /],
    [{ karbon: 5 }, /^externalSystemIds\.karbon: /],
    [{ "  ": "1" }, /^externalSystemIds\. {2}: Key must be/],
    [{ ["k".repeat(101)]: "1" }, /^externalSystemIds\.k+: Key must be/],
    ["karbon", /^externalSystemIds: /],
  ])("refuses %j with 400 and changes nothing", async (externalSystemIds, description) => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const res = await portalApi(ctx.token).patch(portal.id, { name: "Changed", externalSystemIds });
    expect([res.status, res.json.error]).toEqual([400, "invalid_request"]);
    expect(res.json.error_description).toMatch(description);
    expect(await idsOf(ctx.org.id, portal.id)).toEqual([]);
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).name).toBe(portal.name);
  });

  it("accepts a 256-character value and a 6-digit partner id, and ignores partner_link in the request", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const long = "v".repeat(256);
    const res = await portalApi(ctx.token).patch(portal.id, {
      externalSystemIds: { karbon: long, Partner: "012345" },
      partner_link: { status: "linked", customer_id: "999999" },
    });
    expect(res.status).toBe(200);
    expect(res.json.externalSystemIds).toEqual({ karbon: long, Partner: "012345" });
    // Without the partner integration connected, no link applies and nothing is started.
    expect(res.json.partner_link).toBeNull();
    expect(await db.partnerLink.count({ where: { orgId: ctx.org.id } })).toBe(0);
    expect(await eventsOf(ctx.org.id)).toEqual([]);
  });

  it("is 409 conflict when another portal of the organization has the pair (system compared case-insensitively)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const first = await createTestPortal({ orgId: ctx.org.id });
    const second = await createTestPortal({ orgId: ctx.org.id });
    const template = await createTestPortal({ orgId: ctx.org.id, isTemplate: true, archived: true });
    const api = portalApi(ctx.token);
    expect((await api.patch(first.id, { externalSystemIds: { karbon: "K-1", partner: "123456" } })).status).toBe(200);

    for (const externalSystemIds of [{ karbon: "K-1" }, { KARBON: "K-1" }, { partner: "123456" }]) {
      const res = await api.patch(second.id, { externalSystemIds });
      expect([res.status, res.json.error]).toEqual([409, "conflict"]);
    }
    // Templates and archived portals hold their pairs too.
    expect((await api.patch(template.id, { externalSystemIds: { karbon: "K-1" } })).status).toBe(409);
    // Another system, another id, or another organization: no conflict.
    expect((await api.patch(second.id, { externalSystemIds: { xero: "K-1", karbon: "K-2" } })).status).toBe(200);
    const other = await createApiContext({ scopes: ["portal:write"] });
    const theirs = await createTestPortal({ orgId: other.org.id });
    expect((await portalApi(other.token).patch(theirs.id, { externalSystemIds: { karbon: "K-1" } })).status).toBe(200);
    // Once the first portal lets go of the pair, it is free.
    await api.patch(first.id, { externalSystemIds: { karbon: null } });
    expect((await api.patch(second.id, { externalSystemIds: { karbon: "K-1" } })).status).toBe(200);
  });

  it("two concurrent PATCHes assigning one pair to two portals: exactly one 200 and one 409", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const a = await createTestPortal({ orgId: ctx.org.id });
    const b = await createTestPortal({ orgId: ctx.org.id });
    const api = portalApi(ctx.token);
    const results = await Promise.all([a, b].map((p) => api.patch(p.id, { name: `Claimed by ${p.id}`, externalSystemIds: { karbon: "RACE" } })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.status === 409);
    expect(loser?.json.error).toBe("conflict");
    const rows = await db.externalSystemId.findMany({ where: { orgId: ctx.org.id } });
    expect(rows).toHaveLength(1);
    // The loser's other changes were rolled back with it.
    const names = (await db.portal.findMany({ where: { orgId: ctx.org.id } })).map((p) => p.name);
    expect(names.filter((n) => n.startsWith("Claimed by"))).toEqual([`Claimed by ${rows[0]!.portalId}`]);
  });

  it("the unique index decides a race the check cannot see: an uncommitted assignment, then a PATCH of the same pair", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const a = await createTestPortal({ orgId: ctx.org.id });
    const b = await createTestPortal({ orgId: ctx.org.id });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedSignal = new Promise<void>((resolve) => (inserted = resolve));
    const first = db.$transaction(
      async (tx) => {
        await tx.externalSystemId.create({ data: { orgId: ctx.org.id, portalId: a.id, system: "karbon", systemKey: "karbon", value: "HELD" } });
        inserted();
        await held;
      },
      { timeout: 30_000 },
    );
    await insertedSignal;
    const patch = portalApi(ctx.token).patch(b.id, { externalSystemIds: { karbon: "HELD" } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await first;
    const res = await patch;
    expect([res.status, res.json.error]).toEqual([409, "conflict"]);
    expect(await idsOf(ctx.org.id, b.id)).toEqual([]);
  });

  it("a failing change leaves no change, audit row or event behind (one transaction)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    await connectTestPartner(ctx.org.id);
    const [onboarding] = await createTestWorkflowStates(ctx.org.id);
    const holder = await createTestPortal({ orgId: ctx.org.id });
    await db.externalSystemId.create({ data: { orgId: ctx.org.id, portalId: holder.id, system: "karbon", systemKey: "karbon", value: "TAKEN" } });
    const portal = await createTestPortal({ orgId: ctx.org.id, name: "Before" });

    const res = await portalApi(ctx.token).patch(portal.id, {
      name: "After",
      archived: true,
      workflowStateId: onboarding!.id,
      workflowStateName: "Onboarding",
      externalSystemIds: { partner: "654321", karbon: "TAKEN" },
    });
    expect([res.status, res.json.error]).toEqual([409, "conflict"]);
    const row = await db.portal.findUniqueOrThrow({ where: { id: portal.id } });
    expect([row.name, row.archived, row.workflowStateId]).toEqual(["Before", false, null]);
    expect(await idsOf(ctx.org.id, portal.id)).toEqual([]);
    expect(await db.partnerLink.count({ where: { orgId: ctx.org.id } })).toBe(0);
    expect(await eventsOf(ctx.org.id)).toEqual([]);
    expect(await auditOf(ctx.org.id)).toEqual([]);
  });
});

describe("PATCH partner id with the partner integration connected", () => {
  it("saving the id starts verification (verifying + partner.link_changed); clearing it unlinks (+ portal.unlinked)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write", "portal:read"] });
    await connectTestPartner(ctx.org.id);
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = portalApi(ctx.token);

    const saved = await api.patch(portal.id, { externalSystemIds: { partner: "123456" } });
    expect(saved.status).toBe(200);
    expect(saved.json.partner_link).toEqual({ status: "verifying", customer_id: "123456", error: expect.any(String) });
    expect((await eventsOf(ctx.org.id)).map((e) => [e.type, e.data])).toEqual([
      ["partner.link_changed", { customer_id: "123456", previous_customer_id: null }],
    ]);

    // The same id again while verifying (or linked) starts nothing new.
    await api.patch(portal.id, { externalSystemIds: { partner: "123456" } });
    expect(await db.event.count({ where: { orgId: ctx.org.id } })).toBe(1);

    const changed = await api.patch(portal.id, { externalSystemIds: { partner: "654321" } });
    expect(changed.json.partner_link).toMatchObject({ status: "verifying", customer_id: "654321" });

    const cleared = await api.patch(portal.id, { externalSystemIds: { Partner: null } });
    expect(cleared.json.externalSystemIds).toEqual({});
    expect(cleared.json.partner_link).toEqual({ status: "unlinked", customer_id: "654321", error: "The partner id was cleared" });
    const events = (await eventsOf(ctx.org.id)).slice(1).map((e) => [e.type, e.portalId, e.data]);
    expect(events).toEqual([
      ["partner.link_changed", portal.id, { customer_id: "654321", previous_customer_id: "123456" }],
      ["partner.link_changed", portal.id, { customer_id: null, previous_customer_id: "654321" }],
      ["portal.unlinked", portal.id, { customer_id: "654321" }],
    ]);
    expect((await auditOf(ctx.org.id)).map((a) => a.action).sort()).toEqual([
      "partner_link.unlinked",
      "partner_link.verification_started",
      "partner_link.verification_started",
      "portal.external_ids_changed",
      "portal.external_ids_changed",
      "portal.external_ids_changed",
    ]);
    expect((await api.get(portal.id)).json.partner_link).toMatchObject({ status: "unlinked" });
  });

  it("shows tenant and name only when linked, and re-verifies the same id after a failed verification", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write", "portal:read"] });
    await connectTestPartner(ctx.org.id);
    const portal = await createTestPortal({ orgId: ctx.org.id });
    const api = portalApi(ctx.token);
    await api.patch(portal.id, { externalSystemIds: { partner: "123456" } });
    const verifiedAt = new Date("2026-03-04T05:06:07.000Z");
    await db.partnerLink.update({ where: { portalId: portal.id }, data: { status: "linked", tenantId: "T-9", displayName: "Acme Ltd", verifiedAt } });
    expect((await api.get(portal.id)).json.partner_link).toEqual({
      status: "linked",
      customer_id: "123456",
      tenant_id: "T-9",
      display_name: "Acme Ltd",
      verified_at: verifiedAt.toISOString(),
    });

    await db.partnerLink.update({ where: { portalId: portal.id }, data: { status: "not_found", error: "No such customer" } });
    expect((await api.get(portal.id)).json.partner_link).toEqual({
      status: "not_found",
      customer_id: "123456",
      verified_at: verifiedAt.toISOString(),
      error: "No such customer",
    });
    const again = await api.patch(portal.id, { externalSystemIds: { partner: "123456" } });
    expect(again.json.partner_link).toMatchObject({ status: "verifying", customer_id: "123456" });
    expect(await db.event.count({ where: { orgId: ctx.org.id, type: "partner.link_changed" } })).toBe(2);
  });

  it("partner_link is null once the integration is disconnected", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write", "portal:read"] });
    const connection = await connectTestPartner(ctx.org.id);
    const portal = await createTestPortal({ orgId: ctx.org.id });
    await portalApi(ctx.token).patch(portal.id, { externalSystemIds: { partner: "123456" } });
    await db.partnerConnection.update({ where: { id: connection.id }, data: { status: "disconnected" } });
    expect((await portalApi(ctx.token).get(portal.id)).json.partner_link).toBeNull();
  });
});
