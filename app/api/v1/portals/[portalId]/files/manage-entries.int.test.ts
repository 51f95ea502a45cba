import { PutObjectCommand } from "@aws-sdk/client-s3";
import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { deletedFilesPurge } from "@/inngest/functions/deleted-files-purge";
import { getUserViewer, systemViewer, type Viewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { createApiContext, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { outcomeOf } from "@/lib/test-support/outcome";
import { createFolder } from "@/lib/files/create-folder";
import { deleteEntry } from "@/lib/files/delete-entry";
import { listPortalFiles } from "@/lib/files/list-files";
import { getFolderView } from "@/lib/files/folder-view";
import { moveEntry } from "@/lib/files/move-entry";
import { purgeDeletedEntries } from "@/lib/files/purge-deleted";
import { listRecentlyDeleted } from "@/lib/files/recently-deleted";
import { renameEntry } from "@/lib/files/rename-entry";
import { restoreEntry } from "@/lib/files/restore-entry";
import { filesApi } from "@/test/routes/files-api";
import { objectKeys, removeObjectsAfterEach } from "@/lib/test-support/storage";

/** The entries directly inside a folder, as the portal page lists them. */
const listFolder = async (args: { viewer: Viewer; portalId: string; folderId: string | null }) => (await getFolderView(args)).items;

// Folders and files managed from the web application: create, rename, move, delete, restore and
// the nightly purge, against the real database and the embedded S3 server.

const DAY = 24 * 3600 * 1000;
const cleanUp = removeObjectsAfterEach();

async function setup() {
  const org = await createTestOrg();
  cleanUp(org.id);
  const member = await createTestUser({ orgId: org.id, role: "member", name: "Mia Member" });
  const portal = await createTestPortal({ orgId: org.id });
  const viewer = await getUserViewer(member.id, org.id);
  /** A registered file with its object in the bucket. */
  const file = async (name: string, parentId: string | null = null, uploadedById: string | null = member.id) => {
    const id = crypto.randomUUID();
    const storageKey = fileStorageKey(org.id, id);
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: `bytes of ${name}` }));
    return db.fileEntry.create({
      data: { id, orgId: org.id, portalId: portal.id, parentId, name, size: 8, storageKey, uploadedById, registeredAt: new Date() },
    });
  };
  const audit = async () =>
    (await db.auditLog.findMany({ where: { orgId: org.id }, orderBy: { createdAt: "asc" } })).map((a) => [a.action, a.targetId, a.actorUserId]);
  return { org, member, portal, viewer, file, audit };
}

describe("folders", () => {
  it("creates folders at the root and inside a folder, with an audit row; refuses bad names and foreign parents", async () => {
    const { org, member, portal, viewer, audit } = await setup();
    const top = await createFolder({ viewer, portalId: portal.id, name: "  Tax 2026 " });
    const inner = await createFolder({ viewer, portalId: portal.id, name: "Receipts", parentId: top.id });
    expect(top).toMatchObject({ name: "Tax 2026", isFolder: true, parentId: null, uploadedById: member.id, status: "registered" });
    expect(inner.parentId).toBe(top.id);
    expect(await audit()).toEqual([
      ["folder.created", top.id, member.id],
      ["folder.created", inner.id, member.id],
    ]);

    expect(await outcomeOf(createFolder({ viewer, portalId: portal.id, name: "a/b" }))).toBe("invalid_request: name: Must not contain path separators");
    expect(await outcomeOf(createFolder({ viewer, portalId: portal.id, name: "   " }))).toBe("invalid_request: name: Must not be empty");
    const other = await createTestPortal({ orgId: org.id });
    const foreign = await createFolder({ viewer, portalId: other.id, name: "Elsewhere" });
    expect(await outcomeOf(createFolder({ viewer, portalId: portal.id, name: "X", parentId: foreign.id }))).toBe(
      "invalid_request: parentId: Not a folder of this portal",
    );
    expect(await outcomeOf(createFolder({ viewer, portalId: portal.id, name: "X", parentId: "not-a-uuid" }))).toBe(
      "invalid_request: parentId: Not a folder of this portal",
    );
    expect(await db.fileEntry.count({ where: { portalId: portal.id } })).toBe(2);
  });
});

describe("rename and move", () => {
  it("renames a file (its extension follows) and a folder, writing nothing for the same name", async () => {
    const { member, portal, viewer, file, audit } = await setup();
    const f = await file("scan.txt");
    const renamed = await renameEntry({ viewer, portalId: portal.id, fileId: f.id, name: " Passport.PDF " });
    expect(renamed).toMatchObject({ name: "Passport.PDF", extension: "pdf" });
    await renameEntry({ viewer, portalId: portal.id, fileId: f.id, name: "Passport.PDF" });
    const folder = await createFolder({ viewer, portalId: portal.id, name: "Old" });
    expect(await renameEntry({ viewer, portalId: portal.id, fileId: folder.id, name: "New.v2" })).toMatchObject({ name: "New.v2", extension: "" });
    expect((await audit()).filter(([a]) => a !== "folder.created")).toEqual([
      ["file.renamed", f.id, member.id],
      ["folder.renamed", folder.id, member.id],
    ]);
    expect(await outcomeOf(renameEntry({ viewer, portalId: portal.id, fileId: f.id, name: ".." }))).toBe("invalid_request: name: Must be a file name");
  });

  it("lists a folder of its own portal; another portal's folder, a file or an unknown id is not_found, not an empty folder", async () => {
    const { org, portal, viewer, file } = await setup();
    const mine = await createFolder({ viewer, portalId: portal.id, name: "Mine" });
    const other = await createTestPortal({ orgId: org.id });
    const theirs = await createFolder({ viewer, portalId: other.id, name: "Theirs" });
    const f = await file("doc.txt");
    expect(await listFolder({ viewer, portalId: portal.id, folderId: mine.id })).toEqual([]);
    for (const folderId of [theirs.id, f.id, crypto.randomUUID()]) {
      expect(await outcomeOf(listFolder({ viewer, portalId: portal.id, folderId }))).toBe("not_found: Folder not found");
    }
  });

  it("moves within the portal, never into itself, a descendant, a file, a deleted folder or another portal", async () => {
    const { org, member, portal, viewer, file, audit } = await setup();
    const a = await createFolder({ viewer, portalId: portal.id, name: "A" });
    const b = await createFolder({ viewer, portalId: portal.id, name: "B", parentId: a.id });
    const c = await createFolder({ viewer, portalId: portal.id, name: "C", parentId: b.id });
    const f = await file("doc.txt");

    expect((await moveEntry({ viewer, portalId: portal.id, fileId: f.id, parentId: c.id })).parentId).toBe(c.id);
    expect((await listFolder({ viewer, portalId: portal.id, folderId: c.id })).map((e) => e.id)).toEqual([f.id]);
    expect((await moveEntry({ viewer, portalId: portal.id, fileId: f.id, parentId: null })).parentId).toBeNull();

    const refused = "invalid_request: parentId: A folder cannot be moved into itself or one of its folders";
    expect(await outcomeOf(moveEntry({ viewer, portalId: portal.id, fileId: a.id, parentId: a.id }))).toBe(refused);
    expect(await outcomeOf(moveEntry({ viewer, portalId: portal.id, fileId: a.id, parentId: c.id }))).toBe(refused);
    expect(await outcomeOf(moveEntry({ viewer, portalId: portal.id, fileId: a.id, parentId: f.id }))).toBe(
      "invalid_request: parentId: Not a folder of this portal",
    );
    const gone = await createFolder({ viewer, portalId: portal.id, name: "Gone" });
    await deleteEntry({ viewer, portalId: portal.id, fileId: gone.id });
    expect(await outcomeOf(moveEntry({ viewer, portalId: portal.id, fileId: f.id, parentId: gone.id }))).toBe(
      "invalid_request: parentId: Not a folder of this portal",
    );
    const other = await createTestPortal({ orgId: org.id });
    const there = await createFolder({ viewer, portalId: other.id, name: "There" });
    expect(await outcomeOf(moveEntry({ viewer, portalId: portal.id, fileId: f.id, parentId: there.id }))).toBe(
      "invalid_request: parentId: Not a folder of this portal",
    );
    // The entry must be of the portal named.
    expect(await outcomeOf(moveEntry({ viewer, portalId: other.id, fileId: f.id, parentId: null }))).toBe("not_found: File not found");

    // Moving C out of B to the root is fine; its parent chain no longer holds A.
    expect((await moveEntry({ viewer, portalId: portal.id, fileId: c.id, parentId: null })).parentId).toBeNull();
    expect((await moveEntry({ viewer, portalId: portal.id, fileId: a.id, parentId: c.id })).parentId).toBe(c.id);
    expect((await audit()).filter(([x]) => x!.endsWith(".moved"))).toEqual([
      ["file.moved", f.id, member.id],
      ["file.moved", f.id, member.id],
      ["folder.moved", c.id, member.id],
      ["folder.moved", a.id, member.id],
    ]);
  });
});

describe("delete, recently deleted, restore", () => {
  it("a deleted folder takes its contents out of every listing, the API's included, and restoring it brings them back", async () => {
    const { org, portal } = await setup();
    const ctx = await createApiContext();
    cleanUp(ctx.org.id);
    // The API context's organization is another one: make the portal there, list through the API.
    const apiPortal = await createTestPortal({ orgId: ctx.org.id });
    const apiViewer = await getUserViewer(ctx.user.id, ctx.org.id);
    const folder = await createFolder({ viewer: apiViewer, portalId: apiPortal.id, name: "Statements" });
    const sub = await createFolder({ viewer: apiViewer, portalId: apiPortal.id, name: "2026", parentId: folder.id });
    const inside = await db.fileEntry.create({
      data: { orgId: ctx.org.id, portalId: apiPortal.id, parentId: sub.id, name: "jan.pdf", registeredAt: new Date() },
    });
    const outside = await db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: apiPortal.id, name: "keep.pdf", registeredAt: new Date() } });
    const api = filesApi(ctx.token);
    expect((await api.list(apiPortal.id)).json.map((f) => f.id)).toEqual([folder.id, sub.id, inside.id, outside.id]);

    expect(await deleteEntry({ viewer: apiViewer, portalId: apiPortal.id, fileId: folder.id })).toEqual({ deleted: 3 });
    expect((await api.list(apiPortal.id)).json.map((f) => f.id)).toEqual([outside.id]);
    expect((await listPortalFiles({ viewer: apiViewer, portalId: apiPortal.id })).items.map((f) => f.id)).toEqual([outside.id]);
    expect(await outcomeOf(listFolder({ viewer: apiViewer, portalId: apiPortal.id, folderId: sub.id }))).toBe("not_found: Folder not found");
    // Only the folder itself is in "Recently deleted": its contents come back with it.
    expect((await listRecentlyDeleted({ viewer: apiViewer, portalId: apiPortal.id })).map((e) => e.id)).toEqual([folder.id]);

    await restoreEntry({ viewer: apiViewer, portalId: apiPortal.id, fileId: folder.id });
    expect((await api.list(apiPortal.id)).json.map((f) => f.id)).toEqual([folder.id, sub.id, inside.id, outside.id]);
    expect(await listRecentlyDeleted({ viewer: apiViewer, portalId: apiPortal.id })).toEqual([]);
    const actions = (await db.auditLog.findMany({ where: { orgId: ctx.org.id }, orderBy: { createdAt: "asc" } })).map((a) => [a.action, a.metadata]);
    expect(actions.slice(-2)).toEqual([
      ["folder.deleted", { name: "Statements", entries: 3 }],
      ["folder.restored", { name: "Statements", parentId: null }],
    ]);
    // The first organization is untouched by all this.
    expect(await db.fileEntry.count({ where: { orgId: org.id, portalId: portal.id } })).toBe(0);
  });

  it("an entry deleted before its folder stays deleted when the folder is restored; a restore whose folder is gone goes to the root", async () => {
    const { portal, viewer, file } = await setup();
    const folder = await createFolder({ viewer, portalId: portal.id, name: "F" });
    const early = await file("early.txt", folder.id);
    const later = await file("later.txt", folder.id);
    await deleteEntry({ viewer, portalId: portal.id, fileId: early.id });
    await new Promise((r) => setTimeout(r, 5));
    await deleteEntry({ viewer, portalId: portal.id, fileId: folder.id });
    expect((await listRecentlyDeleted({ viewer, portalId: portal.id })).map((e) => e.id)).toEqual([folder.id, early.id]);

    // Restoring the early file alone while its folder is deleted: it comes back at the root.
    expect(await restoreEntry({ viewer, portalId: portal.id, fileId: early.id })).toMatchObject({ parentId: null, deletedAt: null });
    await restoreEntry({ viewer, portalId: portal.id, fileId: folder.id });
    expect((await listFolder({ viewer, portalId: portal.id, folderId: folder.id })).map((e) => e.id)).toEqual([later.id]);
    // Restoring an active entry, or one of another portal, is not found.
    expect(await outcomeOf(restoreEntry({ viewer, portalId: portal.id, fileId: later.id }))).toBe("not_found: File not found");
  });

  it("nothing older than 30 days is restorable; the nightly purge removes it with its objects and contents", async () => {
    const { org, portal, viewer, file } = await setup();
    const folder = await createFolder({ viewer, portalId: portal.id, name: "Old folder" });
    const inFolder = await file("in-folder.txt", folder.id);
    const loose = await file("loose.txt");
    const recent = await file("recent.txt");
    const kept = await file("kept.txt");
    for (const e of [folder, loose, recent]) await deleteEntry({ viewer, portalId: portal.id, fileId: e.id });
    const old = new Date(Date.now() - 31 * DAY);
    await db.fileEntry.updateMany({ where: { id: { in: [folder.id, inFolder.id, loose.id] } }, data: { deletedAt: old } });
    // A pending upload that was aimed at the old folder goes with it, object included.
    const pendingId = crypto.randomUUID();
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: fileStorageKey(org.id, pendingId), Body: "half" }));
    await db.fileEntry.create({
      data: {
        id: pendingId,
        orgId: org.id,
        portalId: portal.id,
        parentId: folder.id,
        name: "p.txt",
        status: "pending",
        storageKey: fileStorageKey(org.id, pendingId),
      },
    });

    expect((await listRecentlyDeleted({ viewer, portalId: portal.id })).map((e) => e.id)).toEqual([recent.id]);
    expect(await outcomeOf(restoreEntry({ viewer, portalId: portal.id, fileId: loose.id }))).toBe("not_found: File not found");

    const { result } = await new InngestTestEngine({ function: deletedFilesPurge }).execute();
    expect(result).toMatchObject({ purged: expect.any(Number) });
    expect((await db.fileEntry.findMany({ where: { orgId: org.id }, orderBy: { name: "asc" } })).map((e) => e.name)).toEqual(["kept.txt", "recent.txt"]);
    expect(await objectKeys(org.id)).toEqual([kept.storageKey, recent.storageKey].sort());
    const purged = await db.auditLog.findMany({ where: { orgId: org.id, action: { endsWith: ".purged" } }, orderBy: { targetId: "asc" } });
    expect(purged.map((a) => [a.action, a.targetId, a.actorType, a.metadata]).sort()).toEqual(
      [
        ["folder.purged", folder.id, "system", { name: "Old folder", entries: 3 }],
        ["file.purged", loose.id, "system", { name: "loose.txt", entries: 1 }],
      ].sort(),
    );
    expect(await purgeDeletedEntries()).toEqual({ purged: 0 });
  });

  it("a guest deletes only their own uploads, and only with the delete permission; they cannot restore", async () => {
    const { org, portal, file } = await setup();
    const guestUser = await createTestUser();
    await db.portalGuest.create({ data: { orgId: org.id, portalId: portal.id, userId: guestUser.id, permissions: { view: true, delete: true } } });
    const guest = await getUserViewer(guestUser.id, org.id);
    const own = await file("mine.txt", null, guestUser.id);
    const firms = await file("firm.txt");
    expect(await outcomeOf(deleteEntry({ viewer: guest, portalId: portal.id, fileId: firms.id }))).toBe("not_found: File not found");
    expect(await deleteEntry({ viewer: guest, portalId: portal.id, fileId: own.id })).toEqual({ deleted: 1 });
    expect(await outcomeOf(restoreEntry({ viewer: guest, portalId: portal.id, fileId: own.id }))).toBe(
      "forbidden: Guests of this portal may not organize its files",
    );
    expect(await outcomeOf(listRecentlyDeleted({ viewer: guest, portalId: portal.id }))).toBe("forbidden: Guests of this portal may not organize its files");
    await restoreEntry({ viewer: systemViewer(org.id), portalId: portal.id, fileId: own.id });
    expect(await db.fileEntry.count({ where: { portalId: portal.id, deletedAt: null } })).toBe(2);
  });
});
