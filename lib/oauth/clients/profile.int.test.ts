import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { findClientProfile, updateClientProfile } from "@/lib/oauth/clients/profile";
import { createTestClient, createTestOrg, createTestUser } from "@/lib/test-support/fixtures";

async function setup() {
  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  const { client } = await createTestClient({ orgId: org.id, actorUserId: admin.id, scopes: ["portal:read"] });
  return { org, admin, client, viewer: await getUserViewer(admin.id, org.id) };
}

describe("updateClientProfile", () => {
  it("sets and clears the publisher, website and logo, with an audit row", async () => {
    const { org, client, viewer } = await setup();
    await updateClientProfile({
      viewer,
      id: client.id,
      publisherName: "Ledger Co",
      websiteUrl: "https://ledger.example",
      logoUrl: "https://ledger.example/logo.png",
    });
    expect(await findClientProfile(client.id)).toEqual({
      publisherName: "Ledger Co",
      websiteUrl: "https://ledger.example",
      logoUrl: "https://ledger.example/logo.png",
    });
    await updateClientProfile({ viewer, id: client.id, publisherName: "", websiteUrl: "", logoUrl: "" });
    expect(await findClientProfile(client.id)).toEqual({ publisherName: null, websiteUrl: null, logoUrl: null });
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "oauth_client.updated", targetId: client.id } })).toBe(2);
  });

  it("refuses a bad URL naming the field, and changes nothing", async () => {
    const { client, viewer } = await setup();
    const refused = updateClientProfile({ viewer, id: client.id, publisherName: "Ledger Co", websiteUrl: "http://ledger.example", logoUrl: "" });
    await expect(refused).rejects.toMatchObject({
      code: "invalid_request",
      field: "websiteUrl",
      message: expect.stringMatching(/^websiteUrl: must be an https URL/),
    });
    expect(await findClientProfile(client.id)).toEqual({ publisherName: null, websiteUrl: null, logoUrl: null });
  });

  it("does not find another organization's client", async () => {
    const { client } = await setup();
    const other = await setup();
    await expect(updateClientProfile({ viewer: other.viewer, id: client.id, publisherName: "Evil", websiteUrl: "", logoUrl: "" })).rejects.toMatchObject({
      code: "not_found",
    });
    expect(await findClientProfile(client.id)).toEqual({ publisherName: null, websiteUrl: null, logoUrl: null });
  });
});
