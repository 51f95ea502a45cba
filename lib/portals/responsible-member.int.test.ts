import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { removeMember } from "@/lib/members/manage-members";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { getResponsibleChoice, setResponsibleMember } from "./responsible-member";
import { PortalSearchSchema, searchPortals } from "./search-portals";

async function world() {
  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin", name: "Ada Admin" });
  const member = await createTestUser({ orgId: org.id, role: "member", name: "Max Member" });
  const viewer = await getUserViewer(admin.id, org.id);
  const portal = await createTestPortal({ orgId: org.id, name: "Acme" });
  return { org, admin, member, viewer, portal };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => (isAppError(e) ? { code: e.code, message: e.message } : e),
  );

describe("a portal's responsible member", () => {
  it("is offered among the organization's members, set once with one audit row, and shown in the portal list", async () => {
    const { member, viewer, portal } = await world();
    const choice = await getResponsibleChoice({ viewer, portalId: portal.id });
    expect(choice.current).toBeNull();
    expect(choice.options.map((o) => o.name)).toEqual(["Ada Admin", "Max Member"]);

    expect(await setResponsibleMember({ viewer, portalId: portal.id, memberId: member.id })).toMatchObject({ changed: true, responsible: { id: member.id } });
    expect(await setResponsibleMember({ viewer, portalId: portal.id, memberId: member.id })).toMatchObject({ changed: false });
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).responsibleMemberId).toBe(member.id);
    const audits = await db.auditLog.findMany({ where: { portalId: portal.id, action: "portal.responsible_changed" } });
    expect(audits.map((a) => a.metadata)).toEqual([{ from: null, to: "Max Member" }]);
    expect((await getResponsibleChoice({ viewer, portalId: portal.id })).current).toBe(member.id);

    const list = await searchPortals({ viewer, search: PortalSearchSchema.parse({}) });
    expect(list.items.find((r) => r.id === portal.id)?.responsible).toEqual({ name: "Max Member", email: expect.stringContaining("@") as string });

    await setResponsibleMember({ viewer, portalId: portal.id, memberId: null });
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).responsibleMemberId).toBeNull();
  });

  it("refuses a guest, another organization's member or a malformed id with a clear message, and changes nothing", async () => {
    const { org, viewer, portal } = await world();
    const guest = await createTestGuest({ orgId: org.id, portalId: portal.id });
    const stranger = await createTestUser({ orgId: (await createTestOrg()).id, role: "admin" });
    const message = "responsibleMemberId: Choose a member of this organization, or nobody";
    for (const memberId of [guest.id, stranger.id, "not-an-id"]) {
      expect(await refusal(setResponsibleMember({ viewer, portalId: portal.id, memberId }))).toEqual({ code: "invalid_request", message });
    }
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).responsibleMemberId).toBeNull();
    expect(await db.auditLog.count({ where: { portalId: portal.id, action: "portal.responsible_changed" } })).toBe(0);
  });

  it("is nobody once that member leaves the organization", async () => {
    const { member, viewer, portal } = await world();
    await setResponsibleMember({ viewer, portalId: portal.id, memberId: member.id });
    await removeMember({ viewer, userId: member.id });
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).responsibleMemberId).toBeNull();
  });

  it("is another organization's portal not found, for reading and for setting", async () => {
    const { portal } = await world();
    const other = await world();
    expect(await refusal(getResponsibleChoice({ viewer: other.viewer, portalId: portal.id }))).toMatchObject({ code: "not_found" });
    expect(await refusal(setResponsibleMember({ viewer: other.viewer, portalId: portal.id, memberId: other.member.id }))).toMatchObject({ code: "not_found" });
  });
});
