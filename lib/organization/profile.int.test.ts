import { describe, expect, it } from "vitest";
import { readGuestPermissions } from "@/lib/access/permissions";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { inviteGuests } from "@/lib/guests/invite-guests";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { getOrgProfile, updateDefaultGuestPermissions, updateOrgProfile } from "./profile";

async function adminOf() {
  const org = await createTestOrg({ name: "Ledger & Co" });
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  return { org, viewer: await getUserViewer(admin.id, org.id) };
}

describe("organization profile", () => {
  it("renames, sets a readable brand colour, refuses a light one naming the fix, and resets it", async () => {
    const { org, viewer } = await adminOf();
    expect(await updateOrgProfile({ viewer, name: " Ledger Ltd ", brandColor: "#0B5394" })).toEqual({ name: "Ledger Ltd", brandColor: "#0b5394" });
    await expect(updateOrgProfile({ viewer, name: "Ledger Ltd", brandColor: "#ffee00" })).rejects.toMatchObject({
      code: "invalid_request",
      field: "brandColor",
      message: expect.stringMatching(/too light.*4\.5:1.*darker/),
    });
    await expect(updateOrgProfile({ viewer, name: "Ledger Ltd", brandColor: "blue" })).rejects.toMatchObject({ name: "ZodError" });
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).brandColor).toBe("#0b5394");
    await updateOrgProfile({ viewer, name: "Ledger Ltd", brandColor: "" });
    expect(await getOrgProfile({ viewer })).toMatchObject({ name: "Ledger Ltd", brandColor: null });
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "organization.updated" } })).toBe(2);
  });

  it("default guest permissions apply to guests invited afterwards only (D16)", async () => {
    const { org, viewer } = await adminOf();
    const portal = await createTestPortal({ orgId: org.id });
    await inviteGuests({ viewer, portalId: portal.id, guests: [{ email: "before@client.test", name: null }] });
    await updateDefaultGuestPermissions({ viewer, permissions: { view: true, upload: false, download: true, deleteOwnUploads: true } });
    await inviteGuests({
      viewer,
      portalId: portal.id,
      guests: [
        { email: "after@client.test", name: null },
        { email: "before@client.test", name: null },
      ],
    });
    const rows = await db.portalGuest.findMany({ where: { portalId: portal.id }, include: { user: true } });
    const perms = Object.fromEntries(rows.map((r) => [r.user.email, readGuestPermissions(r.permissions)]));
    expect(perms["after@client.test"]).toEqual({ view: true, upload: false, download: true, deleteOwnUploads: true });
    // Re-invited: keeps what it had.
    expect(perms["before@client.test"]).toEqual({ view: true, upload: true, download: true, deleteOwnUploads: false });
  });
});
