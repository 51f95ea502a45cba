import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { listUserOrganizations } from "./organizations";

describe("listUserOrganizations", () => {
  it("lists memberships with their role and organizations where the user is only a guest, once each", async () => {
    const own = await createTestOrg();
    const user = await createTestUser({ orgId: own.id, role: "member" });
    const other = await createTestOrg();
    const first = await createTestPortal({ orgId: other.id });
    const second = await createTestPortal({ orgId: other.id });
    for (const portal of [first, second]) {
      await db.portalGuest.create({ data: { orgId: other.id, portalId: portal.id, userId: user.id, permissions: {} } });
    }

    const orgs = await listUserOrganizations(user.id);
    expect(orgs.map((o) => [o.orgId, o.role])).toEqual([
      [own.id, "member"],
      [other.id, "guest"],
    ]);
    expect(await listUserOrganizations((await createTestUser()).id)).toEqual([]);
  });
});
