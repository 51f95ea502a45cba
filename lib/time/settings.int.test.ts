import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTestOrg, createTestUser } from "@/lib/test-support/fixtures";
import { adoptDetectedTimeZone, setOrgDefaultTimeZone, setUserTimeZone, timeZoneOf } from "./settings";

describe("time zone settings", () => {
  it("a person's zone: the organization's default until detected, a choice never overwritten by detection", async () => {
    const org = await createTestOrg();
    const user = await createTestUser({ orgId: org.id, role: "member" });
    expect(await timeZoneOf({ userId: user.id, orgId: org.id })).toEqual({ zone: "UTC", saved: false });

    expect(await adoptDetectedTimeZone({ userId: user.id, timeZone: "Mars/Olympus" })).toBe(false);
    expect(await adoptDetectedTimeZone({ userId: user.id, timeZone: "Europe/Berlin" })).toBe(true);
    expect(await adoptDetectedTimeZone({ userId: user.id, timeZone: "Asia/Tokyo" })).toBe(false);
    expect(await timeZoneOf({ userId: user.id, orgId: org.id })).toEqual({ zone: "Europe/Berlin", saved: true });

    expect(await setUserTimeZone({ userId: user.id, timeZone: " america/new_york " })).toBe("America/New_York");
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).timeZone).toBe("America/New_York");
  });

  it("refuses what is no IANA zone, naming the fix at the form's field, and keeps the previous one", async () => {
    const user = await createTestUser();
    await setUserTimeZone({ userId: user.id, timeZone: "Europe/London" });
    for (const bad of ["Mars/Olympus", "+05:00", "", "London"]) {
      await expect(setUserTimeZone({ userId: user.id, timeZone: bad })).rejects.toMatchObject({
        code: "invalid_request",
        field: "timeZone",
        userMessage: expect.stringMatching(/time zone/),
      });
    }
    await expect(setUserTimeZone({ userId: user.id, timeZone: "Mars/Olympus" })).rejects.toMatchObject({
      userMessage: expect.stringContaining("choose one from the list, or type an IANA name such as Europe/London"),
    });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).timeZone).toBe("Europe/London");
  });

  it("the organization's default: admins only, audited, the zone of people without their own", async () => {
    const org = await createTestOrg();
    const admin = await createTestUser({ orgId: org.id, role: "admin" });
    const member = await createTestUser({ orgId: org.id, role: "member" });
    const other = await createTestOrg();

    await expect(setOrgDefaultTimeZone({ viewer: await getUserViewer(member.id, org.id), timeZone: "Asia/Tokyo" })).rejects.toMatchObject({ status: 403 });
    const viewer = await getUserViewer(admin.id, org.id);
    await expect(setOrgDefaultTimeZone({ viewer, timeZone: "Tokyo" })).rejects.toMatchObject({ field: "defaultTimeZone" });
    expect(await setOrgDefaultTimeZone({ viewer, timeZone: "Asia/Tokyo" })).toBe("Asia/Tokyo");

    expect(await timeZoneOf({ userId: member.id, orgId: org.id })).toEqual({ zone: "Asia/Tokyo", saved: false });
    expect(await timeZoneOf({ userId: member.id, orgId: other.id })).toEqual({ zone: "UTC", saved: false });
    const audit = await db.auditLog.findFirstOrThrow({ where: { orgId: org.id, action: "organization.updated" } });
    expect(audit.metadata).toEqual({ before: { defaultTimeZone: "UTC" }, after: { defaultTimeZone: "Asia/Tokyo" } });
  });
});
