import { describe, expect, it } from "vitest";
import { z } from "zod";
import { systemViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { loadPortalRecords } from "@/lib/portals/portal-record";
import { PortalSchema } from "@/lib/portals/schemas";
import { toPortalResponse } from "@/lib/portals/to-response";
import { PAGE_ORDER } from "@/lib/pagination";
import { portalApi } from "@/test/routes/portal-api";
import { createApiContext, createTestOrg, createTestPortal, createTestWorkflowStates } from "@/lib/test-support/fixtures";

describe("GET /api/v1/portals", () => {
  it("lists active portals, archived ones included, without templates, deleted portals or other organizations' portals", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const other = await createTestOrg();
    const active = await createTestPortal({ orgId: ctx.org.id, name: "Active" });
    const archived = await createTestPortal({ orgId: ctx.org.id, name: "Archived", archived: true });
    await createTestPortal({ orgId: ctx.org.id, name: "Template", isTemplate: true });
    await createTestPortal({ orgId: ctx.org.id, name: "Deleted", deletedAt: new Date() });
    await createTestPortal({ orgId: other.id, name: "Foreign" });

    const res = await portalApi(ctx.token).list();
    expect(res.status).toBe(200);
    expect(res.json.map((p) => [p.id, p.archived])).toEqual([
      [active.id, false],
      [archived.id, true],
    ]);
    expect(res.headers.get("link")).toBeNull();
  });

  it("lists only templates with templatesOnly=true, and refuses a templatesOnly that is not a boolean", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    await createTestPortal({ orgId: ctx.org.id, name: "Portal" });
    const template = await createTestPortal({ orgId: ctx.org.id, name: "Template", isTemplate: true });
    const api = portalApi(ctx.token);

    const templates = await api.list("?templatesOnly=true");
    expect(templates.json.map((p) => [p.id, p.is_template])).toEqual([[template.id, true]]);
    expect((await api.list("?templatesOnly=false")).json.map((p) => p.name)).toEqual(["Portal"]);
    const bad = await api.list("?templatesOnly=yes");
    expect([bad.status, bad.json.error]).toEqual([400, "invalid_request"]);
    expect(bad.json.error_description).toMatch(/^templatesOnly: /);
  });

  it("returns the whole Portal: workflow state, external ids, counters of non-deleted tasks, last activity, web link", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const [state] = await createTestWorkflowStates(ctx.org.id, ["Onboarding"]);
    const activity = new Date("2026-01-02T03:04:05.000Z");
    const portal = await createTestPortal({ orgId: ctx.org.id, name: "Acme", tags: ["vat", "2026"], workflowStateId: state!.id, createdById: ctx.user.id });
    await db.portal.update({ where: { id: portal.id }, data: { lastActivityAt: activity } });
    await db.externalSystemId.create({ data: { orgId: ctx.org.id, portalId: portal.id, system: "Karbon", systemKey: "karbon", value: "K-1" } });
    await db.task.createMany({
      data: [
        { orgId: ctx.org.id, portalId: portal.id, title: "open 1" },
        { orgId: ctx.org.id, portalId: portal.id, title: "open 2" },
        { orgId: ctx.org.id, portalId: portal.id, title: "done", status: "Done" },
        { orgId: ctx.org.id, portalId: portal.id, title: "deleted", deletedAt: new Date() },
      ],
    });
    const empty = await createTestPortal({ orgId: ctx.org.id, name: "Empty" });

    const res = await portalApi(ctx.token).list();
    expect(res.json).toEqual([
      {
        id: portal.id,
        name: "Acme",
        org_id: ctx.org.id,
        tags: ["vat", "2026"],
        workflowStateId: state!.id,
        workflowStateName: "Onboarding",
        archived: false,
        externalSystemIds: { Karbon: "K-1" },
        partner_link: null,
        created_at: portal.createdAt.toISOString(),
        created_by: ctx.user.id,
        open_task_count: 2,
        done_task_count: 1,
        last_activity_at: activity.toISOString(),
        is_template: false,
        web_url: `http://localhost:3000/org/${ctx.org.id}/vault/${portal.id}/folder/main`,
      },
      expect.objectContaining({
        id: empty.id,
        workflowStateId: null,
        workflowStateName: null,
        externalSystemIds: {},
        open_task_count: 0,
        done_task_count: 0,
        last_activity_at: null,
      }),
    ]);
  });

  it("looks a portal up by external system id: system name case-insensitive, id exact, [] when none", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const other = await createTestOrg();
    const portal = await createTestPortal({ orgId: ctx.org.id });
    await createTestPortal({ orgId: ctx.org.id });
    const foreign = await createTestPortal({ orgId: other.id });
    await db.externalSystemId.create({ data: { orgId: ctx.org.id, portalId: portal.id, system: "karbon", systemKey: "karbon", value: "Abc-1" } });
    await db.externalSystemId.create({ data: { orgId: other.id, portalId: foreign.id, system: "karbon", systemKey: "karbon", value: "Abc-2" } });
    const api = portalApi(ctx.token);

    const found = await api.list("?externalSystem=KARBON&externalId=Abc-1");
    expect(found.status).toBe(200);
    expect(found.json.map((p) => [p.id, p.externalSystemIds])).toEqual([[portal.id, { karbon: "Abc-1" }]]);
    for (const query of ["?externalSystem=karbon&externalId=abc-1", "?externalSystem=xero&externalId=Abc-1", "?externalSystem=karbon&externalId=Abc-2"]) {
      const none = await api.list(query);
      expect([none.status, none.json]).toEqual([200, []]);
    }
  });

  it("needs externalSystem and externalId together (400 naming the missing one)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const api = portalApi(ctx.token);
    const onlySystem = await api.list("?externalSystem=karbon");
    expect([onlySystem.status, onlySystem.json.error]).toEqual([400, "invalid_request"]);
    expect(onlySystem.json.error_description).toMatch(/^externalId: /);
    const onlyId = await api.list("?externalId=1");
    expect([onlyId.status, onlyId.json.error_description?.split(":")[0]]).toEqual([400, "externalSystem"]);
  });

  it("pages with limit and cursor: Link to the next page keeps the other parameters, none on the last page", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    for (let i = 0; i < 3; i++) await createTestPortal({ orgId: ctx.org.id, name: `P${i}` });
    // D5 order: created_at, then id (portals made in the same millisecond are ordered by id).
    const ids = (await db.portal.findMany({ where: { orgId: ctx.org.id }, orderBy: PAGE_ORDER, select: { id: true } })).map((p) => p.id);
    const api = portalApi(ctx.token);

    const first = await api.list("?limit=2&templatesOnly=false");
    expect(first.json.map((p) => p.id)).toEqual(ids.slice(0, 2));
    const link = first.headers.get("link");
    expect(link).toMatch(/^<http:\/\/localhost:3000\/api\/v1\/portals\?limit=2&templatesOnly=false&cursor=[\w-]+>; rel="next"$/);
    const next = new URL(/<([^>]+)>/.exec(link ?? "")?.[1] ?? "");
    const second = await api.list(next.search);
    expect(second.json.map((p) => p.id)).toEqual(ids.slice(2));
    expect(second.headers.get("link")).toBeNull();

    expect((await api.list("?cursor=nonsense")).status).toBe(400);
    expect((await api.list("?limit=0")).status).toBe(400);
  });

  it("answers, through pg, byte for byte what the ORM reader and the schema give, with every field set", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const [state] = await createTestWorkflowStates(ctx.org.id, ["Onboarding"]);
    const full = await createTestPortal({
      orgId: ctx.org.id,
      name: 'Full "quoted" ü',
      tags: ["b", "a"],
      workflowStateId: state!.id,
      archived: true,
      createdById: ctx.user.id,
    });
    const pending = await createTestPortal({ orgId: ctx.org.id, name: "Pending" });
    const failed = await createTestPortal({ orgId: ctx.org.id, name: "Failed" });
    const bare = await createTestPortal({ orgId: ctx.org.id, name: "Bare", createdById: null });
    await db.portal.update({ where: { id: full.id }, data: { lastActivityAt: new Date("2026-03-04T05:06:07.089Z") } });
    // One after another in time, so the list's order (created_at, then id) is the order above.
    const created = Date.now() - 10_000;
    for (const [i, p] of [full, pending, failed, bare].entries())
      await db.portal.update({ where: { id: p.id }, data: { createdAt: new Date(created + i * 1000) } });
    // Two systems, given out of their key order: the map comes in system-key order, spelled as set.
    await db.externalSystemId.createMany({
      data: [
        { orgId: ctx.org.id, portalId: full.id, system: "Zeta", systemKey: "zeta", value: "Z-1" },
        { orgId: ctx.org.id, portalId: full.id, system: "alpha", systemKey: "alpha", value: "a 1" },
      ],
    });
    await db.task.createMany({
      data: [
        { orgId: ctx.org.id, portalId: full.id, title: "open" },
        { orgId: ctx.org.id, portalId: full.id, title: "done", status: "Done" },
        { orgId: ctx.org.id, portalId: full.id, title: "done 2", status: "Done" },
        { orgId: ctx.org.id, portalId: full.id, title: "deleted", deletedAt: new Date() },
      ],
    });
    await db.partnerConnection.create({ data: { orgId: ctx.org.id, credentialsEncrypted: "x" } });
    await db.partnerLink.createMany({
      data: [
        {
          orgId: ctx.org.id,
          portalId: full.id,
          status: "linked",
          customerId: "123456",
          tenantId: "T-1",
          displayName: "Acme",
          verifiedAt: new Date("2026-02-03T04:05:06.007Z"),
        },
        { orgId: ctx.org.id, portalId: pending.id, status: "not_found", customerId: "654321" },
        { orgId: ctx.org.id, portalId: failed.id, status: "error", customerId: "111111", error: "Timed out", verifiedAt: new Date("2026-01-01T00:00:00.000Z") },
      ],
    });
    // The same portals read through Prisma's ORM (loadPortalRecords) and parsed by the schema.
    const expected = async () =>
      JSON.stringify(
        z.array(PortalSchema).parse((await loadPortalRecords({ viewer: systemViewer(ctx.org.id), where: { isTemplate: false } })).map(toPortalResponse)),
      );
    const api = portalApi(ctx.token);

    const res = await api.list();
    expect(res.status).toBe(200);
    expect(res.text).toBe(await expected());
    expect(res.json.map((p) => [p.name, p.partner_link])).toEqual([
      ['Full "quoted" ü', { status: "linked", tenant_id: "T-1", customer_id: "123456", display_name: "Acme", verified_at: "2026-02-03T04:05:06.007Z" }],
      ["Pending", { status: "not_found", customer_id: "654321", error: "The partner does not know this customer id" }],
      ["Failed", { status: "error", customer_id: "111111", verified_at: "2026-01-01T00:00:00.000Z", error: "Timed out" }],
      ["Bare", null],
    ]);
    expect(res.json[0]).toMatchObject({
      tags: ["b", "a"],
      archived: true,
      externalSystemIds: { alpha: "a 1", Zeta: "Z-1" },
      open_task_count: 1,
      done_task_count: 2,
    });
    expect(Object.keys(res.json[0]!.externalSystemIds)).toEqual(["alpha", "Zeta"]);
    expect(res.json[3]).toMatchObject({ id: bare.id, created_by: null, last_activity_at: null, workflowStateId: null });

    // D9: no partner_link at all while the integration is not connected.
    await db.partnerConnection.update({ where: { orgId: ctx.org.id }, data: { status: "disconnected" } });
    const disconnected = await api.list();
    expect(disconnected.json.map((p) => p.partner_link)).toEqual([null, null, null, null]);
    expect(disconnected.text).toBe(await expected());
  });

  it("needs portal:read (403 insufficient_scope)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const res = await portalApi(ctx.token).list();
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
    expect(res.headers.get("www-authenticate")).toContain('scope="portal:read"');
  });
});

describe("POST /api/v1/portals", () => {
  it("creates a portal (name and tags trimmed, tags de-duplicated) with its audit row and portal.created event", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const res = await portalApi(ctx.token).create({ name: "  Acme Ltd  ", tags: [" vat ", "year-end", "vat"], partner_link: { status: "linked" } });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: "Acme Ltd",
      org_id: ctx.org.id,
      tags: ["vat", "year-end"],
      workflowStateId: null,
      workflowStateName: null,
      archived: false,
      externalSystemIds: {},
      partner_link: null,
      created_by: ctx.user.id,
      open_task_count: 0,
      done_task_count: 0,
      last_activity_at: null,
      is_template: false,
    });
    const row = await db.portal.findFirstOrThrow({ where: { id: res.json.id, orgId: ctx.org.id } });
    expect(row.name).toBe("Acme Ltd");
    const events = await db.event.findMany({ where: { orgId: ctx.org.id } });
    expect(events.map((e) => [e.type, e.portalId, e.data])).toEqual([
      ["portal.created", row.id, { created_by: ctx.user.id, tags: ["vat", "year-end"], is_template: false }],
    ]);
    const audit = await db.auditLog.findMany({ where: { orgId: ctx.org.id, portalId: row.id } });
    expect(audit.map((a) => [a.action, a.actorUserId, a.oauthClientId])).toEqual([["portal.created", ctx.user.id, ctx.client.id]]);
  });

  it.each([
    [{}, /^name: Required/],
    [{ name: "   " }, /^name: /],
    [{ name: "x".repeat(201) }, /^name: /],
    [{ name: 5 }, /^name: /],
    [{ name: "A", tags: "vat" }, /^tags: /],
    [{ name: "A", tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, /^tags: /],
    [{ name: "A", tags: ["x".repeat(101)] }, /^tags\.0: /],
    [{ name: "A", tags: [" "] }, /^tags\.0: /],
    [{ name: "A", isTemplate: "yes" }, /^isTemplate: /],
    [{ name: "A", templateId: "not-a-uuid" }, /^templateId: /],
    [{ name: "Invoices \u202Efdp.exe" }, /^name: Must not contain control, invisible or bidirectional formatting characters \(U\+202E\)$/],
    [{ name: "Acme\u2066 Ltd" }, /^name: .*\(U\+2066\)$/],
    [{ name: "Acme\u200B Ltd" }, /^name: .*\(U\+200B\)$/],
    [{ name: "Acme\nLtd" }, /^name: .*\(U\+000A\)$/],
  ])("refuses %j with 400 naming the field", async (body, description) => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const res = await portalApi(ctx.token).create(body);
    expect([res.status, res.json.error]).toEqual([400, "invalid_request"]);
    expect(res.json.error_description).toMatch(description);
    expect(await db.portal.count({ where: { orgId: ctx.org.id } })).toBe(0);
  });

  it("accepts a 200-character name and 50 tags", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const res = await portalApi(ctx.token).create({ name: "n".repeat(200), tags: Array.from({ length: 50 }, (_, i) => `t${i}`) });
    expect(res.status).toBe(201);
    expect(res.json.tags).toHaveLength(50);
  });

  it("creates a template, listed only with templatesOnly=true", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write", "portal:read"] });
    const api = portalApi(ctx.token);
    const res = await api.create({ name: "Year-end template", isTemplate: true });
    expect([res.status, res.json.is_template]).toEqual([201, true]);
    expect((await api.list()).json).toEqual([]);
    expect((await api.list("?templatesOnly=true")).json.map((p) => p.id)).toEqual([res.json.id]);
    const event = await db.event.findFirstOrThrow({ where: { orgId: ctx.org.id, type: "portal.created" } });
    expect(event.data).toMatchObject({ is_template: true });
  });

  it("from a template: copies the folder tree at every level (not files or deleted folders), merges tags, takes the workflow state", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const [, review] = await createTestWorkflowStates(ctx.org.id);
    const template = await createTestPortal({ orgId: ctx.org.id, isTemplate: true, tags: ["year-end", "vat"], workflowStateId: review!.id });
    const folder = (name: string, parentId: string | null = null, extra: { deletedAt?: Date } = {}) =>
      db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: template.id, name, isFolder: true, parentId, registeredAt: new Date(), ...extra } });
    const statements = await folder("Statements");
    const bank = await folder("Bank", statements.id);
    await folder("2026", bank.id);
    await folder("Receipts");
    await folder("Old", null, { deletedAt: new Date() });
    await db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: template.id, parentId: bank.id, name: "letter.pdf", extension: "pdf", size: 10 } });

    const res = await portalApi(ctx.token).create({ name: "Acme", tags: ["vat", "corporate"], templateId: template.id });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ tags: ["year-end", "vat", "corporate"], workflowStateId: review!.id, workflowStateName: "In review", is_template: false });

    const copied = await db.fileEntry.findMany({ where: { orgId: ctx.org.id, portalId: res.json.id } });
    expect(copied.every((f) => f.isFolder && f.status === "registered" && f.deletedAt === null)).toBe(true);
    const pathOf = (id: string | null): string => {
      const f = copied.find((c) => c.id === id);
      return f ? `${pathOf(f.parentId)}/${f.name}` : "";
    };
    expect(copied.map((f) => pathOf(f.id)).sort()).toEqual(["/Receipts", "/Statements", "/Statements/Bank", "/Statements/Bank/2026"]);
    // The template keeps its own tree.
    expect(await db.fileEntry.count({ where: { portalId: template.id } })).toBe(6);
  });

  it("refuses a templateId that is not a template of this organization (400)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const other = await createTestOrg();
    const notTemplate = await createTestPortal({ orgId: ctx.org.id });
    const foreign = await createTestPortal({ orgId: other.id, isTemplate: true });
    const deleted = await createTestPortal({ orgId: ctx.org.id, isTemplate: true, deletedAt: new Date() });
    for (const templateId of [notTemplate.id, foreign.id, deleted.id, crypto.randomUUID()]) {
      const res = await portalApi(ctx.token).create({ name: "A", templateId });
      expect([res.status, res.json.error]).toEqual([400, "invalid_request"]);
      expect(res.json.error_description).toMatch(/^templateId: /);
    }
    expect(await db.portal.count({ where: { orgId: ctx.org.id } })).toBe(2);
  });

  it("makes one portal when a create is retried with the same Idempotency-Key", async () => {
    const ctx = await createApiContext({ scopes: ["portal:write"] });
    const api = portalApi(ctx.token);
    const first = await api.create({ name: "Once" }, { "Idempotency-Key": "create-once" });
    const retry = await api.create({ name: "Once" }, { "Idempotency-Key": "create-once" });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.text).toBe(first.text);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await db.portal.count({ where: { orgId: ctx.org.id } })).toBe(1);
    expect(await db.event.count({ where: { orgId: ctx.org.id, type: "portal.created" } })).toBe(1);
    const different = await api.create({ name: "Twice" }, { "Idempotency-Key": "create-once" });
    expect([different.status, different.json.error]).toEqual([409, "conflict"]);
  });

  it("needs portal:write (403 insufficient_scope)", async () => {
    const ctx = await createApiContext({ scopes: ["portal:read"] });
    const res = await portalApi(ctx.token).create({ name: "A" });
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
    expect(await db.portal.count({ where: { orgId: ctx.org.id } })).toBe(0);
  });
});
