import { describe, expect, it } from "vitest";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { requireOrgRole, roleInOrganization } from "./roles";

describe("roleInOrganization and requireOrgRole (through the viewer of lib/access)", () => {
  it("member, guest, nobody: the role, forbidden below the minimum, not_found without a role", async () => {
    const org = await createTestOrg();
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const portal = await createTestPortal({ orgId: org.id });
    const guest = await createTestGuest({ orgId: org.id, portalId: portal.id });
    const outsider = await createTestUser();

    expect(await roleInOrganization(member.id, org.id)).toBe("member");
    expect(await roleInOrganization(guest.id, org.id)).toBe("guest");
    expect(await roleInOrganization(outsider.id, org.id)).toBeNull();
    expect(await requireOrgRole(member.id, org.id, "member")).toBe("member");
    await expect(requireOrgRole(member.id, org.id, "admin")).rejects.toMatchObject({ code: "forbidden", message: "This needs the admin role" });
    await expect(requireOrgRole(guest.id, org.id, "member")).rejects.toMatchObject({ code: "forbidden" });
    await expect(requireOrgRole(outsider.id, org.id, "guest")).rejects.toMatchObject({ code: "not_found", message: "Organization not found" });
  });
});
