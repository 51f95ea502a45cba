import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { MAX_TAGS } from "./limits";
import { addPortalTags } from "./update-portal";
import { updatePortals } from "./update-portals";

async function world() {
  const org = await createTestOrg();
  const member = await createTestUser({ orgId: org.id, role: "member" });
  const viewer = await getUserViewer(member.id, org.id);
  const portals = await Promise.all(["Acme", "Brightside", "Crane"].map((name) => createTestPortal({ orgId: org.id, name, tags: ["2026"] })));
  return { org, viewer, portals, ids: portals.map((p) => p.id) };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (isAppError(e) ? { code: e.code, message: e.message } : e),
  );

describe("updatePortals", () => {
  it("archives and restores every selected portal, one audit row and no change for a portal already so", async () => {
    const { viewer, ids } = await world();
    await db.portal.update({ where: { id: ids[0] }, data: { archived: true } });
    expect(await updatePortals({ viewer, portalIds: ids, change: { kind: "archive" } })).toEqual({ changed: 3, failed: [] });
    expect((await db.portal.findMany({ where: { id: { in: ids } } })).every((p) => p.archived)).toBe(true);
    expect(await db.auditLog.count({ where: { portalId: { in: ids }, action: "portal.archived" } })).toBe(2);
    await updatePortals({ viewer, portalIds: ids.slice(1), change: { kind: "restore" } });
    expect((await db.portal.findMany({ where: { id: { in: ids } }, orderBy: { name: "asc" } })).map((p) => p.archived)).toEqual([true, false, false]);
  });

  it("adds a tag to each portal's own tags, and reports a portal at its tag limit while the others go on", async () => {
    const { viewer, ids } = await world();
    const full = Array.from({ length: MAX_TAGS }, (_, i) => `t${i}`);
    await db.portal.update({ where: { id: ids[2] }, data: { tags: full } });
    const result = await updatePortals({ viewer, portalIds: ids, change: { kind: "addTag", tag: "  vip " } });
    expect(result.changed).toBe(2);
    expect(result.failed).toEqual([{ portalId: ids[2], name: "Crane", message: `A portal has at most ${MAX_TAGS} tags; remove some from this one first` }]);
    const tags = await db.portal.findMany({ where: { id: { in: ids } }, orderBy: { name: "asc" }, select: { tags: true } });
    expect(tags.map((t) => t.tags)).toEqual([["2026", "vip"], ["2026", "vip"], full]);
    expect(await db.auditLog.count({ where: { portalId: { in: ids }, action: "portal.tags_changed" } })).toBe(2);
  });

  it("keeps a tag added at the same time by another change of the portal", async () => {
    const { viewer, ids } = await world();
    await Promise.all([addPortalTags({ viewer, portalId: ids[0]!, tags: ["a"] }), addPortalTags({ viewer, portalId: ids[0]!, tags: ["b"] })]);
    const { tags } = await db.portal.findUniqueOrThrow({ where: { id: ids[0] } });
    expect([...tags].sort()).toEqual(["2026", "a", "b"]);
  });

  it("moves every portal to a workflow state, with portal.workflow_changed each", async () => {
    const { org, viewer, ids } = await world();
    const [review] = await createTestWorkflowStates(org.id, ["In review"]);
    const result = await updatePortals({
      viewer,
      portalIds: ids,
      change: { kind: "workflowState", workflowStateId: review!.id, workflowStateName: "In review" },
    });
    expect(result).toEqual({ changed: 3, failed: [] });
    expect(await db.portal.count({ where: { id: { in: ids }, workflowStateId: review!.id } })).toBe(3);
    expect(await db.event.count({ where: { portalId: { in: ids }, type: "portal.workflow_changed" } })).toBe(3);
  });

  it("changes nothing when a selected portal is not one the viewer may change, and names the field of an empty or oversized selection", async () => {
    const { org, viewer, ids } = await world();
    const elsewhere = await createTestOrg();
    const stranger = await createTestPortal({ orgId: elsewhere.id, name: "Not yours" });
    expect(await refusal(updatePortals({ viewer, portalIds: [...ids, stranger.id], change: { kind: "archive" } }))).toMatchObject({ code: "not_found" });
    expect(await db.portal.count({ where: { id: { in: ids }, archived: true } })).toBe(0);

    expect(await refusal(updatePortals({ viewer, portalIds: [], change: { kind: "archive" } }))).toMatchObject({
      code: "invalid_request",
      message: "portal_ids: Select at least one portal",
    });
    expect(
      await refusal(updatePortals({ viewer, portalIds: Array.from({ length: 101 }, () => crypto.randomUUID()), change: { kind: "archive" } })),
    ).toMatchObject({
      code: "invalid_request",
      message: "portal_ids: Select at most 100 portals at once",
    });

    const guest = await createTestGuest({ orgId: org.id, portalId: ids[0]! });
    const guestViewer = await getUserViewer(guest.id, org.id);
    expect(await refusal(updatePortals({ viewer: guestViewer, portalIds: [ids[0]!], change: { kind: "archive" } }))).toMatchObject({ code: "forbidden" });
  });
});
