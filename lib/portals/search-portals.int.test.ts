import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { PortalSearchSchema, searchPortals, type PortalSearch } from "./search-portals";

async function seeded() {
  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  const [onboarding] = await createTestWorkflowStates(org.id, ["Onboarding"]);
  const base = Date.UTC(2026, 0, 1);
  // 23 portals (i = 22 archived, named Client 16): names out of creation order, every third one with activity, every fifth tagged.
  for (let i = 0; i < 23; i++) {
    await db.portal.create({
      data: {
        orgId: org.id,
        name: `Client ${String((i * 7) % 23).padStart(2, "0")}`,
        createdAt: new Date(base + i * 60_000),
        lastActivityAt: i % 3 === 0 ? new Date(base + 1e9 - i * 1000) : null,
        tags: i % 5 === 0 ? ["vip"] : [],
        workflowStateId: i % 2 === 0 ? onboarding!.id : null,
        archived: i === 22,
      },
    });
  }
  await createTestPortal({ orgId: org.id, name: "Client template", isTemplate: true });
  return { org, viewer: await getUserViewer(admin.id, org.id), onboarding: onboarding! };
}

const search = (query: Record<string, string>): PortalSearch => PortalSearchSchema.parse(query);

/** Every page forwards, then every page backwards from the last: both must give the same rows. */
async function walk(viewer: Awaited<ReturnType<typeof seeded>>["viewer"], query: Record<string, string>) {
  const forward: string[][] = [];
  let page = await searchPortals({ viewer, search: search(query), pageSize: 5 });
  forward.push(page.items.map((p) => p.name));
  expect(page.previous).toBeNull();
  while (page.next) {
    page = await searchPortals({ viewer, search: search({ ...query, after: page.next }), pageSize: 5 });
    forward.push(page.items.map((p) => p.name));
  }
  const backward: string[][] = [forward.at(-1)!];
  while (page.previous) {
    page = await searchPortals({ viewer, search: search({ ...query, before: page.previous }), pageSize: 5 });
    backward.unshift(page.items.map((p) => p.name));
  }
  expect(backward).toEqual(forward);
  return forward.flat();
}

describe("searchPortals", () => {
  it.each(["created", "name", "activity"])("pages through every active portal once, forwards and back, sorted by %s", async (sort) => {
    const { viewer } = await seeded();
    const names = await walk(viewer, { sort });
    expect(names).toHaveLength(22);
    expect(new Set(names).size).toBe(22);
    if (sort === "name") expect(names).toEqual([...names].sort());
    if (sort === "created") expect(names[0]).toBe("Client 09"); // i = 21, the newest active one
    if (sort === "activity") {
      // The 7 active-with-activity portals first (most recent first), then the rest.
      const rows = await db.portal.findMany({ where: { orgId: viewer.orgId, name: { in: names.slice(0, 7) } } });
      expect(rows.every((r) => r.lastActivityAt !== null)).toBe(true);
      expect(names[0]).toBe("Client 00");
    }
  });

  it("searches by name, filters by tag, state, archived and templates", async () => {
    const { viewer, onboarding } = await seeded();
    const names = async (q: Record<string, string>) => (await searchPortals({ viewer, search: search(q) })).items.map((p) => p.name).sort();
    expect(await names({ q: "client 1" })).toEqual([
      "Client 10",
      "Client 11",
      "Client 12",
      "Client 13",
      "Client 14",
      "Client 15",
      "Client 17",
      "Client 18",
      "Client 19",
    ]);
    expect(await names({ tag: "vip" })).toHaveLength(5); // i = 0, 5, 10, 15, 20
    expect(await names({ state: onboarding.id })).toHaveLength(11); // even i but the archived 22
    expect(await names({ state: "none" })).toHaveLength(11);
    expect(await names({ status: "archived" })).toEqual(["Client 16"]);
    expect(await names({ status: "all" })).toHaveLength(23);
    expect(await names({ templates: "1" })).toEqual(["Client template"]);
    // Unreadable values fall back to the defaults instead of failing the page.
    expect(await names({ sort: "bogus", status: "x", state: "not-a-uuid", after: "%%%" })).toHaveLength(22);
  });

  it("counts tasks and guests per row and shows guests only their portals", async () => {
    const { org, viewer } = await seeded();
    const portal = await createTestPortal({ orgId: org.id, name: "Counted" });
    await db.task.createMany({
      data: [
        { orgId: org.id, portalId: portal.id, title: "a" },
        { orgId: org.id, portalId: portal.id, title: "b", status: "Done" },
        { orgId: org.id, portalId: portal.id, title: "c", status: "Done" },
        { orgId: org.id, portalId: portal.id, title: "gone", deletedAt: new Date() },
      ],
    });
    const guest = await createTestGuest({ orgId: org.id, portalId: portal.id });
    const [row] = (await searchPortals({ viewer, search: search({ q: "Counted" }) })).items;
    expect(row).toMatchObject({ openTaskCount: 1, doneTaskCount: 2, guestCount: 1 });
    const guestViewer = await getUserViewer(guest.id, org.id);
    const seen = await searchPortals({ viewer: guestViewer, search: search({}) });
    expect(seen.items.map((p) => p.name)).toEqual(["Counted"]);
    expect(seen.total).toBe(1);
  });

  it("gives the total of every page and each portal's next due date among its open tasks", async () => {
    const { org, viewer } = await seeded();
    const page = await searchPortals({ viewer, search: search({}), pageSize: 5 });
    expect(page.items).toHaveLength(5);
    expect(page.total).toBe(22);
    expect((await searchPortals({ viewer, search: search({ tag: "vip", status: "all" }), pageSize: 2 })).total).toBe(5);
    expect((await searchPortals({ viewer, search: search({ templates: "1" }) })).total).toBe(1);

    const portal = await createTestPortal({ orgId: org.id, name: "Due soon" });
    await db.task.createMany({
      data: [
        { orgId: org.id, portalId: portal.id, title: "later", dueDate: new Date("2026-12-20T17:00:00Z") },
        { orgId: org.id, portalId: portal.id, title: "sooner", dueDate: new Date("2026-12-05T17:00:00Z") },
        { orgId: org.id, portalId: portal.id, title: "done earlier", status: "Done", dueDate: new Date("2026-12-01T17:00:00Z") },
        { orgId: org.id, portalId: portal.id, title: "deleted earlier", deletedAt: new Date(), dueDate: new Date("2026-12-02T17:00:00Z") },
      ],
    });
    const [row] = (await searchPortals({ viewer, search: search({ q: "Due soon" }) })).items;
    expect(row!.nextDueAt).toEqual(new Date("2026-12-05T17:00:00Z"));
    const [none] = (await searchPortals({ viewer, search: search({ q: "Client 01" }) })).items;
    expect(none!.nextDueAt).toBeNull();
  });
});
