import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fileUploadedEvents, filesApi } from "@/test/routes/files-api";
import { db } from "@/lib/db";
import { createApiContext, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createTestFolder, objectKeys, removeObjects } from "@/lib/test-support/storage";
import { createPortalAction } from "../../actions";
import { completeUploadAction, createFolderAction, renameEntryAction, startUploadAction } from "./file-actions";

// The web uploader's two server actions and the API's two-step upload run the same domain
// functions (lib/files/start-upload, complete-upload): the same `file.uploaded` event with the
// same payload and the same audit row, against the real database and the embedded S3 server.
// The session is the one thing stood in for (Auth.js needs a request).

const session = vi.hoisted(() => ({ user: { id: "", email: "member@example.com", name: "Member" } }));
vi.mock("@/lib/auth/session", () => ({
  currentUser: async () => session.user,
  requireUser: async () => session.user,
}));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined }));

const orgs: string[] = [];
afterEach(async () => {
  await Promise.all(orgs.splice(0).map(removeObjects));
});

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

async function put(url: string, body: string, contentType: string) {
  const res = await fetch(url, { method: "PUT", body, headers: { "Content-Type": contentType } });
  expect(res.status).toBe(200);
}

let ctx: Awaited<ReturnType<typeof createApiContext>> & { portalId: string; folderId: string; taskId: string };
beforeEach(async () => {
  const api = await createApiContext();
  orgs.push(api.org.id);
  const portal = await createTestPortal({ orgId: api.org.id });
  const folder = await createTestFolder({ orgId: api.org.id, portalId: portal.id, name: "Statements" });
  const task = await db.task.create({ data: { orgId: api.org.id, portalId: portal.id, title: "Send statements", actionType: "FileRequest" } });
  ctx = { ...api, portalId: portal.id, folderId: folder.id, taskId: task.id };
  // The same person on both sides: the API token's user signed in on the web.
  session.user.id = api.user.id;
});

describe("web upload and API upload", () => {
  it("fire the same file.uploaded event with the same payload, and write the same audit row", async () => {
    const body = "%PDF-1.7 statement\n".repeat(50);
    const common = { filename: "Statement.pdf", contentType: "application/pdf" };

    // The web: the uploader's start action, the browser's PUT, the complete action.
    const started = await startUploadAction(
      ctx.org.id,
      {},
      form({ portalId: ctx.portalId, ...common, size: String(body.length), folderId: ctx.folderId, taskId: ctx.taskId }),
    );
    expect(started.error).toBeUndefined();
    const ticket = started.ticket!;
    expect(ticket.contentType).toBe("application/pdf");
    await put(ticket.uploadUrl, body, ticket.contentType);
    const completed = await completeUploadAction(
      ctx.org.id,
      {},
      form({ portalId: ctx.portalId, fileId: ticket.fileId, filename: common.filename, size: String(body.length) }),
    );
    expect(completed).toEqual({ file: { id: ticket.fileId, name: "Statement.pdf" } });

    // The API, same user, same target.
    const api = filesApi(ctx.token);
    const apiStarted = await api.upload(ctx.portalId, { ...common, size: body.length, parent_folder_file_id: ctx.folderId, task_id: ctx.taskId });
    expect(apiStarted.status).toBe(200);
    await put(apiStarted.json.upload_url, body, "application/pdf");
    expect((await api.complete(ctx.portalId, { file_id: apiStarted.json.file_id, filename: common.filename })).status).toBe(201);

    const events = await fileUploadedEvents(ctx.org.id);
    expect(events).toHaveLength(2);
    const [web, fromApi] = events.map((e) => e.data as Record<string, unknown>);
    expect(web).toMatchObject({ file_id: ticket.fileId, task_id: ctx.taskId, uploaded_by: ctx.user.id, size: body.length, content_type: "application/pdf" });
    expect(fromApi).toMatchObject({ file_id: apiStarted.json.file_id });
    expect({ ...web, file_id: "x" }).toEqual({ ...fromApi, file_id: "x" });
    expect(events.map((e) => e.portalId)).toEqual([ctx.portalId, ctx.portalId]);

    // The audit rows differ only in the file and in the OAuth client the API call went through.
    const audit = await db.auditLog.findMany({ where: { orgId: ctx.org.id, action: "file.uploaded" }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.targetId)).toEqual([ticket.fileId, apiStarted.json.file_id]);
    expect(audit[0]!.metadata).toEqual(audit[1]!.metadata);
    expect(audit.map((a) => a.actorUserId)).toEqual([ctx.user.id, ctx.user.id]);
    expect(await objectKeys(ctx.org.id)).toHaveLength(2);
  });

  it("refuses with messages that name the fix: too large, bytes not uploaded, no upload right", async () => {
    const tooLarge = await startUploadAction(
      ctx.org.id,
      {},
      form({ portalId: ctx.portalId, filename: "huge.iso", contentType: "application/octet-stream", size: String(3 * 1024 ** 3) }),
    );
    expect(tooLarge.ticket).toBeUndefined();
    expect(tooLarge.error).toMatch(/limited to 2 GB; split it or compress it/);

    const started = await startUploadAction(ctx.org.id, {}, form({ portalId: ctx.portalId, filename: "a.txt", contentType: "text/plain", size: "3" }));
    const notPut = await completeUploadAction(ctx.org.id, {}, form({ portalId: ctx.portalId, fileId: started.ticket!.fileId, filename: "a.txt", size: "3" }));
    expect(notPut.error).toMatch(/No bytes were uploaded/);
    expect(await fileUploadedEvents(ctx.org.id)).toEqual([]);

    // A guest of the portal without the upload permission.
    const guest = await createTestUser();
    await db.portalGuest.create({
      data: {
        orgId: ctx.org.id,
        portalId: ctx.portalId,
        userId: guest.id,
        permissions: { view: true, upload: false, download: true, deleteOwnUploads: false },
        acceptedAt: new Date(),
      },
    });
    session.user.id = guest.id;
    const refused = await startUploadAction(ctx.org.id, {}, form({ portalId: ctx.portalId, filename: "a.txt", contentType: "text/plain", size: "3" }));
    expect(refused.ticket).toBeUndefined();
    expect(refused.error).toMatch(/upload/);
  });

  it("completes an upload only for whoever started it: a guest sees another user's pending upload as unknown", async () => {
    const started = await startUploadAction(ctx.org.id, {}, form({ portalId: ctx.portalId, filename: "a.txt", contentType: "text/plain", size: "3" }));
    await put(started.ticket!.uploadUrl, "abc", "text/plain");
    const guest = await createTestUser();
    await db.portalGuest.create({
      data: { orgId: ctx.org.id, portalId: ctx.portalId, userId: guest.id, permissions: { view: true, upload: true, download: true }, acceptedAt: new Date() },
    });
    session.user.id = guest.id;
    const taken = await completeUploadAction(
      ctx.org.id,
      {},
      form({ portalId: ctx.portalId, fileId: started.ticket!.fileId, filename: "guest-named.txt", size: "3" }),
    );
    const unknown = await completeUploadAction(
      ctx.org.id,
      {},
      form({ portalId: ctx.portalId, fileId: "00000000-0000-4000-8000-000000000000", filename: "guest-named.txt", size: "3" }),
    );
    expect(taken).toEqual(unknown);
    expect(taken.error).toMatch(/No upload with this id/);
    const row = await db.fileEntry.findUniqueOrThrow({ where: { id: started.ticket!.fileId } });
    expect([row.status, row.name, row.uploadedById]).toEqual(["pending", "a.txt", ctx.user.id]);
    expect(await fileUploadedEvents(ctx.org.id)).toEqual([]);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "file.uploaded" } })).toBe(0);

    // Its owner still completes it.
    session.user.id = ctx.user.id;
    const mine = await completeUploadAction(ctx.org.id, {}, form({ portalId: ctx.portalId, fileId: started.ticket!.fileId, filename: "a.txt", size: "3" }));
    expect(mine).toEqual({ file: { id: started.ticket!.fileId, name: "a.txt" } });
  });

  it("refuses bidirectional and invisible characters in folder, file and portal names, naming the field, as the API does", async () => {
    const spoof = "invoice\u202Efdp.exe";
    const message = "Must not contain control, invisible or bidirectional formatting characters (U+202E)";
    const folder = await createFolderAction(ctx.org.id, {}, form({ portalId: ctx.portalId, name: spoof }));
    expect(folder).toEqual({ error: `name: ${message}` });
    const renamed = await renameEntryAction(ctx.org.id, {}, form({ portalId: ctx.portalId, fileId: ctx.folderId, name: spoof }));
    expect(renamed).toEqual({ error: `name: ${message}` });
    const upload = await startUploadAction(ctx.org.id, {}, form({ portalId: ctx.portalId, filename: spoof, contentType: "text/plain", size: "3" }));
    expect(upload.ticket).toBeUndefined();
    expect(JSON.stringify(upload)).toContain(message);
    const portal = await createPortalAction(ctx.org.id, {}, form({ name: "Acme \u2067Ltd", kind: "portal" }));
    expect(JSON.stringify(portal)).toContain("(U+2067)");
    expect(await db.fileEntry.count({ where: { orgId: ctx.org.id, name: { contains: "\u202E" } } })).toBe(0);
    expect(await db.portal.count({ where: { orgId: ctx.org.id } })).toBe(1);
  });
});
