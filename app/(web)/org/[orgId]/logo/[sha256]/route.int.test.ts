import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { inviteGuests } from "@/lib/guests/invite-guests";
import { LOGO_MAX_BYTES, removeOrgLogo, setOrgLogo } from "@/lib/organization/logo";
import { updateOrgProfile } from "@/lib/organization/profile";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { objectKeys } from "@/lib/test-support/storage";
import { GET } from "./route";

// The organization's logo end to end on real PostgreSQL and S3: upload (PNG/JPEG only, 512 KB),
// served by the same-origin route, replaced (the old path stops answering), removed; and the
// brand (colour, absolute logo URL) in the organization's emails.

const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

async function adminOf() {
  const org = await createTestOrg({ name: "Logo & Co" });
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  return { org, viewer: await getUserViewer(admin.id, org.id) };
}

async function fetchLogo(path: string) {
  const [, , orgId, , sha256] = path.split("/");
  return GET(new Request(`http://localhost${path}`), { params: Promise.resolve({ orgId: orgId!, sha256: sha256! }) });
}

describe("organization logo", () => {
  it("stores a PNG in S3, serves it from our origin, replaces it with a JPEG and removes it", async () => {
    const { org, viewer } = await adminOf();
    const { logoUrl } = await setOrgLogo({ viewer, bytes: PNG });
    expect(logoUrl).toMatch(new RegExp(`^/org/${org.id}/logo/[0-9a-f]{64}$`));
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).logoUrl).toBe(logoUrl);
    const res = await fetchLogo(logoUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toContain("immutable");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);

    const jpeg = await setOrgLogo({ viewer, bytes: JPEG });
    expect((await fetchLogo(logoUrl)).status).toBe(404);
    const second = await fetchLogo(jpeg.logoUrl);
    expect(second.status).toBe(200);
    expect(second.headers.get("content-type")).toBe("image/jpeg");
    // The replaced object is gone from the bucket: one logo object at a time.
    expect((await objectKeys(org.id)).filter((k) => k.includes("/logo/"))).toHaveLength(1);

    await removeOrgLogo({ viewer });
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).logoUrl).toBeNull();
    expect((await fetchLogo(jpeg.logoUrl)).status).toBe(404);
    expect((await objectKeys(org.id)).filter((k) => k.includes("/logo/"))).toHaveLength(0);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "organization.logo_changed" } })).toBe(3);
  });

  it("refuses SVG, other files, empty and too large uploads naming the fix, and keeps the current logo", async () => {
    const { org, viewer } = await adminOf();
    const { logoUrl } = await setOrgLogo({ viewer, bytes: PNG });
    await expect(setOrgLogo({ viewer, bytes: SVG })).rejects.toMatchObject({
      code: "invalid_request",
      field: "logo",
      message: expect.stringMatching(/PNG or JPEG/),
    });
    await expect(setOrgLogo({ viewer, bytes: Buffer.from("GIF89a....") })).rejects.toMatchObject({ field: "logo" });
    await expect(setOrgLogo({ viewer, bytes: new Uint8Array() })).rejects.toMatchObject({ field: "logo", message: expect.stringMatching(/Choose an image/) });
    const big = Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]);
    await expect(setOrgLogo({ viewer, bytes: big })).rejects.toMatchObject({ field: "logo", message: expect.stringMatching(/at most 512 KB/) });
    expect((await db.organization.findUniqueOrThrow({ where: { id: org.id } })).logoUrl).toBe(logoUrl);
    expect((await fetchLogo(logoUrl)).status).toBe(200);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "organization.logo_changed" } })).toBe(1);
  });

  it("answers 404 for another organization's hash or a made-up path", async () => {
    const a = await adminOf();
    const b = await adminOf();
    const { logoUrl } = await setOrgLogo({ viewer: a.viewer, bytes: PNG });
    const sha = logoUrl.split("/").pop()!;
    expect((await fetchLogo(`/org/${b.org.id}/logo/${sha}`)).status).toBe(404);
    expect((await fetchLogo(`/org/${a.org.id}/logo/${"0".repeat(64)}`)).status).toBe(404);
    expect((await fetchLogo(`/org/${a.org.id}/logo/..%2F..%2Fsecret`)).status).toBe(404);
  });

  it("puts the brand colour and the logo's absolute URL in the organization's emails", async () => {
    const { org, viewer } = await adminOf();
    const portal = await createTestPortal({ orgId: org.id });
    await inviteGuests({ viewer, portalId: portal.id, guests: [{ email: "plain@client.test", name: null }] });
    const plain = await db.outboundEmail.findFirstOrThrow({ where: { orgId: org.id, to: "plain@client.test" } });
    // No brand yet: the product's colour and the organization's name, escaped.
    expect(plain.html).toContain('data-brand="#1f4e79"');
    expect(plain.html).toContain(">Logo &amp; Co</span>");

    await updateOrgProfile({ viewer, name: "Logo & Co", brandColor: "#0B5394" });
    const { logoUrl } = await setOrgLogo({ viewer, bytes: PNG });
    await inviteGuests({ viewer, portalId: portal.id, guests: [{ email: "branded@client.test", name: null }] });
    const branded = await db.outboundEmail.findFirstOrThrow({ where: { orgId: org.id, to: "branded@client.test" } });
    expect(branded.html).toContain("background:#0b5394");
    expect(branded.html).toContain(`<img src="${new URL(logoUrl, env().APP_URL).toString()}" alt="Logo &amp; Co"`);
    expect(branded.html).toMatch(/<img src="https?:\/\/[^"]+\/org\//);
    // The text part stays plain.
    expect(branded.text).not.toContain("<");
  });
});
