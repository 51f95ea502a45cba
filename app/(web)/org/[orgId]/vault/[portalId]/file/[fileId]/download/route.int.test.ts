import { randomUUID } from "node:crypto";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { NextRequest } from "next/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { removeObjects } from "@/lib/test-support/storage";
import { GET } from "./route";

// The web download route against the database and the embedded S3 server: who gets a redirect to
// a signed URL (and what that URL serves), and who gets the same not-found.

const session = vi.hoisted(() => ({ user: null as { id: string; email: string; name: string } | null }));
vi.mock("@/lib/auth/session", () => ({
  currentUser: async () => session.user,
  requireUser: async () => session.user,
}));

const orgs: string[] = [];
afterEach(async () => {
  await Promise.all(orgs.splice(0).map(removeObjects));
});

let w: { orgId: string; portalId: string; fileId: string; memberId: string };
beforeEach(async () => {
  const org = await createTestOrg();
  orgs.push(org.id);
  const member = await createTestUser({ orgId: org.id, role: "member" });
  const portal = await createTestPortal({ orgId: org.id });
  const fileId = randomUUID();
  const key = fileStorageKey(org.id, fileId);
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: "a,b\n1,2\n", ContentType: "text/csv" }));
  await db.fileEntry.create({
    data: {
      id: fileId,
      orgId: org.id,
      portalId: portal.id,
      name: "Année 2026.csv",
      extension: "csv",
      contentType: "text/csv",
      size: 8,
      storageKey: key,
      registeredAt: new Date(),
    },
  });
  w = { orgId: org.id, portalId: portal.id, fileId, memberId: member.id };
});

function as(userId: string | null) {
  session.user = userId ? { id: userId, email: "x@test.example", name: "X" } : null;
}

async function download(ids: { orgId: string; portalId: string; fileId: string }, query = "") {
  const url = `http://localhost/org/${ids.orgId}/vault/${ids.portalId}/file/${ids.fileId}/download${query}`;
  return GET(new NextRequest(url), { params: Promise.resolve(ids) });
}

describe("GET /org/<org>/vault/<portal>/file/<file>/download", () => {
  it("sends a signed-in member to a signed URL valid 5 minutes that downloads the file under its name", async () => {
    as(w.memberId);
    const res = await download(w);
    expect(res.status).toBe(303);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const location = new URL(res.headers.get("Location")!);
    expect(location.searchParams.get("X-Amz-Expires")).toBe("300");
    const file = await fetch(location);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Disposition")).toBe(`attachment; filename="Ann?e 2026.csv"; filename*=UTF-8''Ann%C3%A9e%202026.csv`);
    expect(await file.text()).toBe("a,b\n1,2\n");

    // ?inline=1: CSV is shown in the browser (previews).
    const inline = await fetch((await download(w, "?inline=1")).headers.get("Location")!);
    expect(inline.headers.get("Content-Disposition")).toMatch(/^inline;/);
    expect(inline.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
  });

  it("a signed URL older than 5 minutes is refused by storage", async () => {
    as(w.memberId);
    const location = new URL((await download(w)).headers.get("Location")!);
    // The same URL as if minted 5 minutes and 1 second ago.
    const minted = location.searchParams.get("X-Amz-Date")!;
    const t = new Date(
      `${minted.slice(0, 4)}-${minted.slice(4, 6)}-${minted.slice(6, 8)}T${minted.slice(9, 11)}:${minted.slice(11, 13)}:${minted.slice(13, 15)}Z`,
    );
    const older = new Date(t.getTime() - 301_000).toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
    location.searchParams.set("X-Amz-Date", older);
    const res = await fetch(location);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Request has expired");
  });

  it("is not found signed out, for another organization's member, a guest without download, a deleted file or a bad id", async () => {
    as(null);
    expect((await download(w)).status).toBe(404);

    const other = await createTestOrg();
    orgs.push(other.id);
    as((await createTestUser({ orgId: other.id, role: "admin" })).id);
    expect((await download(w)).status).toBe(404);
    // Their own organization's id in the URL, this portal and file: still nothing.
    expect((await download({ ...w, orgId: other.id })).status).toBe(404);

    const guest = await createTestUser();
    await db.portalGuest.create({
      data: {
        orgId: w.orgId,
        portalId: w.portalId,
        userId: guest.id,
        permissions: { view: true, upload: true, download: false, deleteOwnUploads: false },
        acceptedAt: new Date(),
      },
    });
    as(guest.id);
    const refused = await download(w);
    expect(refused.status).toBe(404);
    expect(refused.headers.get("Location")).toBeNull();
    await db.portalGuest.updateMany({
      where: { userId: guest.id },
      data: { permissions: { view: true, upload: true, download: true, deleteOwnUploads: false } },
    });
    expect((await download(w)).status).toBe(303);

    as(w.memberId);
    expect((await download({ ...w, fileId: "not-a-uuid" })).status).toBe(404);
    await db.fileEntry.update({ where: { id: w.fileId }, data: { deletedAt: new Date() } });
    expect((await download(w)).status).toBe(404);
  });
});
