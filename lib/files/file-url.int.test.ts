import { PutObjectCommand } from "@aws-sdk/client-s3";
import { describe, expect, it } from "vitest";
import { getUserViewer, viewerFromApiAuth } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { ALL_SCOPES } from "@/lib/access/scopes";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createForeignAdmin, outcomeOf } from "@/lib/test-support/outcome";
import { deleteEntry } from "@/lib/files/delete-entry";
import { getFileUrl } from "@/lib/files/file-url";
import { createTestFolder, removeObjectsAfterEach } from "@/lib/test-support/storage";

// Download and preview URLs (D27) against the embedded S3 server: what the URL serves, who gets
// one, and that it stops working when it expires.

const cleanUp = removeObjectsAfterEach();

async function setup() {
  const org = await createTestOrg();
  cleanUp(org.id);
  const member = await createTestUser({ orgId: org.id, role: "member" });
  const portal = await createTestPortal({ orgId: org.id });
  const viewer = await getUserViewer(member.id, org.id);
  const file = async (name: string, contentType: string | null, body: string) => {
    const id = crypto.randomUUID();
    const storageKey = fileStorageKey(org.id, id);
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: body, ContentType: contentType ?? undefined }));
    return db.fileEntry.create({
      data: { id, orgId: org.id, portalId: portal.id, name, contentType, size: body.length, storageKey, uploadedById: member.id, registeredAt: new Date() },
    });
  };
  const guest = async (permissions: object) => {
    const user = await createTestUser();
    await db.portalGuest.create({ data: { orgId: org.id, portalId: portal.id, userId: user.id, permissions } });
    return getUserViewer(user.id, org.id);
  };
  return { org, member, portal, viewer, file, guest };
}

describe("getFileUrl", () => {
  it("a download URL serves the bytes as an attachment named after the file (UTF-8 safe), valid 5 minutes", async () => {
    const { portal, viewer, file } = await setup();
    const f = await file("Jahresabschluss 2026 – Müller.pdf", "application/pdf", "%PDF-1.7 statement");
    const { url, expiresIn, inline } = await getFileUrl({ viewer, portalId: portal.id, fileId: f.id });
    expect({ expiresIn, inline }).toEqual({ expiresIn: 300, inline: false });
    expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("300");
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("%PDF-1.7 statement");
    expect(res.headers.get("content-type")).toBe("application/octet-stream");
    expect(res.headers.get("content-disposition")).toBe(
      `attachment; filename="Jahresabschluss 2026 ? M?ller.pdf"; filename*=UTF-8''Jahresabschluss%202026%20%E2%80%93%20M%C3%BCller.pdf`,
    );
    // The response headers travel as response-* query parameters, which SigV4 signs (real S3
    // refuses a changed one; the embedded s3rver does not check v4 signatures, only expiry).
    expect(new URL(url).searchParams.get("response-content-type")).toBe("application/octet-stream");
    expect(new URL(url).searchParams.get("response-content-disposition")).toMatch(/^attachment; /);
  });

  it("a preview URL shows PDFs, images, text and CSV inline with a safe type; HTML, SVG and unknown types download", async () => {
    const { portal, viewer, file } = await setup();
    const cases: [string, string | null, string, boolean, string][] = [
      ["a.pdf", "application/pdf", "%PDF", true, "application/pdf"],
      ["b.png", "image/png", "png", true, "image/png"],
      ["c.txt", "Text/Plain; charset=latin1", "text", true, "text/plain; charset=utf-8"],
      ["d.csv", "text/csv", "a,b", true, "text/csv; charset=utf-8"],
      ["e.html", "text/html", "<script>alert(1)</script>", false, "application/octet-stream"],
      ["f.svg", "image/svg+xml", "<svg onload=alert(1)>", false, "application/octet-stream"],
      ["g.bin", null, "??", false, "application/octet-stream"],
    ];
    for (const [name, type, body, inline, served] of cases) {
      const f = await file(name, type, body);
      const got = await getFileUrl({ viewer, portalId: portal.id, fileId: f.id, mode: "preview" });
      expect(got.inline, name).toBe(inline);
      const res = await fetch(got.url);
      expect(res.status, name).toBe(200);
      expect(res.headers.get("content-type"), name).toBe(served);
      expect(res.headers.get("content-disposition"), name).toBe(`${inline ? "inline" : "attachment"}; filename="${name}"`);
    }
  });

  it("an expired URL is refused by storage; a lifetime over 5 minutes is not minted", async () => {
    const { portal, viewer, file } = await setup();
    const f = await file("short.txt", "text/plain", "soon gone");
    const { url } = await getFileUrl({ viewer, portalId: portal.id, fileId: f.id, expiresIn: 1 });
    expect((await fetch(url)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain("Request has expired");
    expect(await outcomeOf(getFileUrl({ viewer, portalId: portal.id, fileId: f.id, expiresIn: 301 }))).toBe("invalid_request: expiresIn: 1 to 300 seconds");
  });

  it("is minted for members and guests with download only: not for another organization, a guest without download, an OAuth client, folders or deleted files", async () => {
    const { member, org, portal, viewer, file, guest } = await setup();
    const f = await file("id.pdf", "application/pdf", "%PDF");
    const withDownload = await guest({ view: true, download: true });
    const withoutDownload = await guest({ view: true, download: false });
    expect((await fetch((await getFileUrl({ viewer: withDownload, portalId: portal.id, fileId: f.id })).url)).status).toBe(200);
    expect(await outcomeOf(getFileUrl({ viewer: withoutDownload, portalId: portal.id, fileId: f.id }))).toBe(
      "forbidden: Guests of this portal may not download files",
    );

    const foreigner = await createForeignAdmin();
    expect(await outcomeOf(getFileUrl({ viewer: foreigner, portalId: portal.id, fileId: f.id }))).toBe("not_found: File not found");
    const client = viewerFromApiAuth({
      orgId: org.id,
      userId: member.id,
      role: "member",
      clientId: "c",
      clientRecordId: crypto.randomUUID(),
      scopes: ALL_SCOPES,
    });
    expect(await outcomeOf(getFileUrl({ viewer: client, portalId: portal.id, fileId: f.id }))).toBe("forbidden: This cannot be done through the API");

    const folder = await createTestFolder({ orgId: org.id, portalId: portal.id });
    expect(await outcomeOf(getFileUrl({ viewer, portalId: portal.id, fileId: folder.id }))).toBe("not_found: File not found");
    const otherPortal = await createTestPortal({ orgId: org.id });
    expect(await outcomeOf(getFileUrl({ viewer, portalId: otherPortal.id, fileId: f.id }))).toBe("not_found: File not found");
    await deleteEntry({ viewer, portalId: portal.id, fileId: f.id });
    expect(await outcomeOf(getFileUrl({ viewer, portalId: portal.id, fileId: f.id }))).toBe("not_found: File not found");
  });
});
