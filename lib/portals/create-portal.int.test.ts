import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createPortal } from "./create-portal";

// The plan rule of D8 for templates, through the domain function the web app shares with the
// API (API tokens only exist for enterprise organizations, so the API cannot reach a free plan).

async function orgWithTemplate(plan: "free" | "business" | "enterprise") {
  const org = await createTestOrg({ plan, apiEnabled: false });
  const user = await createTestUser({ orgId: org.id, role: "admin" });
  const template = await createTestPortal({ orgId: org.id, isTemplate: true, tags: ["t"] });
  await db.fileEntry.create({ data: { orgId: org.id, portalId: template.id, name: "Docs", isFolder: true } });
  return { org, viewer: await getUserViewer(user.id, org.id), template };
}

describe("createPortal from a template", () => {
  it("is 403 plan_required on the free plan and creates nothing", async () => {
    const { org, viewer, template } = await orgWithTemplate("free");
    await expect(createPortal({ viewer, name: "From template", templateId: template.id })).rejects.toMatchObject({ code: "plan_required", status: 403 });
    expect(await db.portal.count({ where: { orgId: org.id } })).toBe(1);
    expect(await db.event.count({ where: { orgId: org.id } })).toBe(0);
    // Without a template the free plan creates portals.
    expect((await createPortal({ viewer, name: "Plain" })).name).toBe("Plain");
  });

  it.each(["business", "enterprise"] as const)("works on the %s plan", async (plan) => {
    const { viewer, template } = await orgWithTemplate(plan);
    const portal = await createPortal({ viewer, name: "From template", templateId: template.id, tags: ["u"] });
    expect(portal.tags).toEqual(["t", "u"]);
    expect(await db.fileEntry.count({ where: { portalId: portal.id, isFolder: true } })).toBe(1);
  });

  it("validates its input like the API does (a ZodError the API maps to 400)", async () => {
    const { viewer } = await orgWithTemplate("free");
    await expect(createPortal({ viewer, name: "  " })).rejects.toMatchObject({ name: "ZodError" });
  });
});
