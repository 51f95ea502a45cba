import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createForeignAdmin } from "@/lib/test-support/outcome";
import { createFolder } from "./create-folder";
import { deleteEntry } from "./delete-entry";
import { getFolderTree, getFolderView } from "./folder-view";

// The portal page's folder listing: sort, pagination, uploader, linked task, breadcrumbs, tree.

async function setup() {
  const org = await createTestOrg();
  const ann = await createTestUser({ orgId: org.id, role: "member", name: "Ann" });
  const zed = await createTestUser({ orgId: org.id, role: "member", name: "Zed" });
  const portal = await createTestPortal({ orgId: org.id });
  const viewer = await getUserViewer(ann.id, org.id);
  const task = await db.task.create({ data: { orgId: org.id, portalId: portal.id, title: "Send receipts" } });
  let n = 0;
  const file = (name: string, size: number, uploadedById: string, parentId: string | null = null, taskId: string | null = null) =>
    db.fileEntry.create({
      data: {
        orgId: org.id,
        portalId: portal.id,
        name,
        extension: name.split(".").pop()!,
        size,
        uploadedById,
        parentId,
        taskId,
        registeredAt: new Date(Date.UTC(2026, 0, 1 + n++)),
      },
    });
  return { org, ann, zed, portal, viewer, task, file };
}

describe("getFolderView", () => {
  it("lists a folder's children, folders first, in each sort order both ways, with uploader and linked task", async () => {
    const { ann, zed, portal, viewer, task, file } = await setup();
    const folder = await createFolder({ viewer, portalId: portal.id, name: "Zeta folder" });
    const b = await file("b.pdf", 300, zed.id, null, task.id);
    const a = await file("a.txt", 100, ann.id);
    const c = await file("c.csv", 200, zed.id);
    await file("inside.pdf", 1, ann.id, folder.id);

    const names = async (sort: "name" | "size" | "type" | "uploader" | "date", dir: "asc" | "desc" = "asc") =>
      (await getFolderView({ viewer, portalId: portal.id, folderId: "main", sort, dir })).items.map((i) => i.name);
    expect(await names("name")).toEqual(["Zeta folder", "a.txt", "b.pdf", "c.csv"]);
    expect(await names("name", "desc")).toEqual(["Zeta folder", "c.csv", "b.pdf", "a.txt"]);
    expect(await names("size")).toEqual(["Zeta folder", "a.txt", "c.csv", "b.pdf"]);
    expect(await names("type")).toEqual(["Zeta folder", "c.csv", "b.pdf", "a.txt"]);
    expect(await names("uploader")).toEqual(["Zeta folder", "a.txt", "b.pdf", "c.csv"]);
    expect(await names("uploader", "desc")).toEqual(["Zeta folder", "c.csv", "b.pdf", "a.txt"]);
    expect(await names("date", "desc")).toEqual(["Zeta folder", "c.csv", "a.txt", "b.pdf"]);

    const view = await getFolderView({ viewer, portalId: portal.id, folderId: null });
    expect(view).toMatchObject({ folder: null, breadcrumbs: [], total: 4, page: 1, pageSize: 50 });
    expect(view.items.find((i) => i.id === b.id)).toMatchObject({
      size: 300,
      extension: "pdf",
      uploader: { id: zed.id, name: "Zed" },
      task: { id: task.id, title: "Send receipts" },
    });
    expect(view.items.find((i) => i.id === a.id)).toMatchObject({ uploader: { id: ann.id, name: "Ann" }, task: null });
    // A deleted entry, and a deleted linked task, leave the view.
    await deleteEntry({ viewer, portalId: portal.id, fileId: c.id });
    await db.task.update({ where: { id: task.id }, data: { deletedAt: new Date() } });
    const after = await getFolderView({ viewer, portalId: portal.id, folderId: "main" });
    expect(after.items.map((i) => i.name)).toEqual(["Zeta folder", "a.txt", "b.pdf"]);
    expect(after.items.find((i) => i.id === b.id)?.task).toBeNull();
  });

  it("paginates with a total, and a page past the end is empty with the same total", async () => {
    const { ann, portal, viewer, file } = await setup();
    for (let i = 0; i < 7; i++) await file(`f${i}.txt`, i, ann.id);
    const page = (p: number) => getFolderView({ viewer, portalId: portal.id, folderId: "main", page: p, pageSize: 3 });
    expect((await page(1)).items.map((i) => i.name)).toEqual(["f0.txt", "f1.txt", "f2.txt"]);
    expect(await page(3)).toMatchObject({ total: 7, items: [{ name: "f6.txt" }] });
    expect(await page(4)).toMatchObject({ total: 7, items: [] });
    await expect(getFolderView({ viewer, portalId: portal.id, folderId: "main", pageSize: 500 })).rejects.toThrow("pageSize: A whole number from 1 to 200");
    await expect(getFolderView({ viewer, portalId: portal.id, folderId: "main", sort: "owner" as "name" })).rejects.toThrow(
      "sort: One of name, size, type, uploader, date",
    );
  });

  it("pages in every sort order and direction add up to the whole list: folders first, across uploaders, inside a folder too", async () => {
    const { org, ann, zed, portal, viewer, file } = await setup();
    const noName = await createTestUser({ orgId: org.id, role: "member", name: undefined });
    await db.user.update({ where: { id: noName.id }, data: { name: null } });
    const parent = await createFolder({ viewer, portalId: portal.id, name: "Parent" });
    for (const where of [null, parent.id]) {
      for (const name of ["F2", "F1", "F3"]) await createFolder({ viewer, portalId: portal.id, name, parentId: where });
      const uploaders = [ann.id, zed.id, noName.id];
      for (let i = 0; i < 9; i++) await file(`file-${(i * 5) % 9}.${["pdf", "txt", "csv"][i % 3]}`, (i * 37) % 7, uploaders[i % 3]!, where);
      // A file without an uploader (the service).
      await db.fileEntry.create({
        data: { orgId: org.id, portalId: portal.id, parentId: where, name: "system.log", extension: "log", size: 3, registeredAt: new Date() },
      });
    }
    for (const folderId of ["main", parent.id]) {
      for (const sort of ["name", "size", "type", "uploader", "date"] as const) {
        for (const dir of ["asc", "desc"] as const) {
          const whole = await getFolderView({ viewer, portalId: portal.id, folderId, sort, dir, pageSize: 200 });
          const paged = [];
          for (let page = 1; page <= 4; page++) {
            const view = await getFolderView({ viewer, portalId: portal.id, folderId, sort, dir, page, pageSize: 4 });
            expect(view.total).toBe(whole.total);
            paged.push(...view.items.map((i) => i.name));
          }
          expect(paged, `${folderId} ${sort} ${dir}`).toEqual(whole.items.map((i) => i.name));
          expect(whole.items.slice(0, 3).every((i) => i.isFolder)).toBe(true);
        }
      }
    }
    const byUploader = await getFolderView({ viewer, portalId: portal.id, folderId: "main", sort: "uploader", pageSize: 200 });
    // Files without an uploader come last.
    expect(byUploader.items.at(-1)?.name).toBe("system.log");
    expect(byUploader.total).toBe(1 + 3 + 10);
  });

  it("gives the breadcrumbs from the root and the folder tree; an unknown, deleted or foreign folder is not found", async () => {
    const { org, portal, viewer } = await setup();
    const a = await createFolder({ viewer, portalId: portal.id, name: "2026" });
    const b = await createFolder({ viewer, portalId: portal.id, name: "Bank", parentId: a.id });
    const c = await createFolder({ viewer, portalId: portal.id, name: "January", parentId: b.id });
    const other = await createFolder({ viewer, portalId: portal.id, name: "2025" });
    const view = await getFolderView({ viewer, portalId: portal.id, folderId: c.id });
    expect(view.breadcrumbs).toEqual([
      { id: a.id, name: "2026" },
      { id: b.id, name: "Bank" },
      { id: c.id, name: "January" },
    ]);
    expect(view.folder).toEqual({ id: c.id, name: "January" });
    expect(await getFolderTree({ viewer, portalId: portal.id })).toEqual([
      { id: other.id, name: "2025", children: [] },
      { id: a.id, name: "2026", children: [{ id: b.id, name: "Bank", children: [{ id: c.id, name: "January", children: [] }] }] },
    ]);

    await deleteEntry({ viewer, portalId: portal.id, fileId: b.id });
    await expect(getFolderView({ viewer, portalId: portal.id, folderId: c.id })).rejects.toThrow("Folder not found");
    expect(await getFolderTree({ viewer, portalId: portal.id })).toEqual([
      { id: other.id, name: "2025", children: [] },
      { id: a.id, name: "2026", children: [] },
    ]);
    await expect(getFolderView({ viewer, portalId: portal.id, folderId: "nope" })).rejects.toThrow("Folder not found");
    const otherPortal = await createTestPortal({ orgId: org.id });
    await expect(getFolderView({ viewer, portalId: otherPortal.id, folderId: a.id })).rejects.toThrow("Folder not found");
    const foreigner = await createForeignAdmin();
    await expect(getFolderView({ viewer: foreigner, portalId: portal.id, folderId: "main" })).rejects.toThrow("Portal not found");
  });
});
