import { PutObjectCommand } from "@aws-sdk/client-s3";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { fileWebUrl } from "@/lib/links";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { issueAccessToken } from "@/lib/oauth/access-token";
import { ALL_SCOPES } from "@/lib/access/scopes";
import { createApiContext, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { fileUploadedEvents, filesApi } from "@/test/routes/files-api";
import { createTestFolder, objectBytes, objectKeys, removeObjects } from "@/lib/test-support/storage";

// GET files and the two-step upload (POST files without file_url, PUT to the presigned URL, POST
// files/complete) against the embedded S3 server.

const orgs: string[] = [];
async function context(scopes?: Parameters<typeof createApiContext>[0]) {
  const ctx = await createApiContext(scopes);
  orgs.push(ctx.org.id);
  const portal = await createTestPortal({ orgId: ctx.org.id });
  return { ...ctx, portal, api: filesApi(ctx.token) };
}
afterEach(async () => {
  await Promise.all(orgs.splice(0).map(removeObjects));
});

async function put(url: string, body: Buffer | string, contentType: string) {
  return fetch(url, { method: "PUT", body: typeof body === "string" ? body : new Uint8Array(body), headers: { "Content-Type": contentType } });
}

describe("two-step upload", () => {
  it("issues a presigned PUT, registers the bytes on complete, fires file.uploaded once, and lists the file", async () => {
    const ctx = await context();
    const folder = await createTestFolder({ orgId: ctx.org.id, portalId: ctx.portal.id, name: "Statements" });
    const task = await db.task.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, title: "Send statements", actionType: "FileRequest" } });
    const bytes = Buffer.from("%PDF-1.7 bank statement\n".repeat(100));

    const started = await ctx.api.upload(ctx.portal.id, {
      filename: "Statement 2026.PDF",
      contentType: "application/pdf",
      size: bytes.length,
      parent_folder_file_id: folder.id,
      task_id: task.id,
    });
    expect(started.status).toBe(200);
    expect(started.json).toEqual({
      file_id: expect.any(String),
      upload_url: expect.stringMatching(/^http/),
      expires_in: 3600,
      method: "PUT",
      headers: { "Content-Type": "application/pdf" },
    });
    const fileId = started.json.file_id;
    // The storage key is made of ids only, and the URL carries a signature valid one hour.
    const uploadUrl = new URL(started.json.upload_url);
    expect(uploadUrl.pathname).toContain(fileStorageKey(ctx.org.id, fileId));
    expect(uploadUrl.pathname).not.toContain("Statement");
    expect(uploadUrl.searchParams.get("X-Amz-Expires")).toBe("3600");
    expect(uploadUrl.searchParams.get("X-Amz-SignedHeaders")).toContain("content-type");

    // Pending: not listed, no event.
    expect((await ctx.api.list(ctx.portal.id)).json.map((f) => f.id)).toEqual([folder.id]);
    expect(await fileUploadedEvents(ctx.org.id)).toEqual([]);

    const res = await put(started.json.upload_url, bytes, "application/pdf");
    expect(res.status).toBe(200);

    const completed = await ctx.api.complete(ctx.portal.id, { file_id: fileId, filename: "Statement 2026.PDF" });
    expect(completed.status).toBe(201);
    expect(completed.json).toEqual({
      id: fileId,
      name: "Statement 2026.PDF",
      vault_id: ctx.portal.id,
      org_id: ctx.org.id,
      size: bytes.length,
      extension: "pdf",
      parent_folder_file_id: folder.id,
      uploaded_at: expect.any(String),
      uploaded_by: ctx.user.id,
      is_folder: false,
      content_type: "application/pdf",
      task_id: task.id,
      web_url: fileWebUrl(ctx.org.id, ctx.portal.id, fileId),
    });
    expect(await objectBytes(fileStorageKey(ctx.org.id, fileId))).toEqual(bytes);

    const row = await db.fileEntry.findUniqueOrThrow({ where: { id: fileId } });
    expect(row).toMatchObject({
      status: "registered",
      pendingExpiresAt: null,
      uploadedViaClientId: ctx.client.id,
      storageKey: fileStorageKey(ctx.org.id, fileId),
    });
    // Linked to the task, which stays open.
    expect((await db.task.findUniqueOrThrow({ where: { id: task.id } })).status).toBe("Open");
    expect((await db.portal.findUniqueOrThrow({ where: { id: ctx.portal.id } })).lastActivityAt).toEqual(row.registeredAt);

    const events = await fileUploadedEvents(ctx.org.id);
    expect(events.map((e) => [e.portalId, e.data])).toEqual([
      [
        ctx.portal.id,
        {
          file_id: fileId,
          name: "Statement 2026.PDF",
          extension: "pdf",
          size: bytes.length,
          content_type: "application/pdf",
          uploaded_by: ctx.user.id,
          uploaded_by_email: ctx.user.email,
          uploaded_by_name: ctx.user.name,
          task_id: task.id,
        },
      ],
    ]);
    const audit = await db.auditLog.findMany({ where: { orgId: ctx.org.id, action: "file.uploaded" } });
    expect(audit.map((a) => [a.portalId, a.targetId, a.actorUserId, a.oauthClientId])).toEqual([[ctx.portal.id, fileId, ctx.user.id, ctx.client.id]]);

    // Completing again: the same entry, nothing fired.
    const again = await ctx.api.complete(ctx.portal.id, { file_id: fileId, filename: "Other name.txt" });
    expect(again.status).toBe(201);
    expect(again.json).toEqual(completed.json);
    expect(await fileUploadedEvents(ctx.org.id)).toHaveLength(1);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "file.uploaded" } })).toBe(1);

    const listed = await ctx.api.list(ctx.portal.id);
    expect(listed.json.map((f) => [f.id, f.is_folder])).toEqual([
      [folder.id, true],
      [fileId, false],
    ]);
    expect(listed.json[1]).toEqual(completed.json);
  });

  it("of two concurrent completions, one registers and fires; both get the same entry", async () => {
    const ctx = await context();
    const started = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", contentType: "text/plain", size: 5 });
    await put(started.json.upload_url, "hello", "text/plain");
    const body = { file_id: started.json.file_id, filename: "a.txt" };
    const results = await Promise.all([1, 2, 3, 4].map(() => ctx.api.complete(ctx.portal.id, body)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(await fileUploadedEvents(ctx.org.id)).toHaveLength(1);
  });

  it("defaults to application/octet-stream, takes the size stored when none was announced, and the extension given at complete", async () => {
    const ctx = await context();
    const started = await ctx.api.upload(ctx.portal.id, { filename: "notes" });
    expect(started.json.headers).toEqual({ "Content-Type": "application/octet-stream" });
    await put(started.json.upload_url, Buffer.alloc(1234, 1), "application/octet-stream");
    const done = await ctx.api.complete(ctx.portal.id, { file_id: started.json.file_id, filename: "notes", extension: ".MD" });
    expect(done.status).toBe(201);
    expect(done.json).toMatchObject({ size: 1234, extension: "md", content_type: "application/octet-stream", parent_folder_file_id: null, task_id: null });
  });

  it("refuses to complete before the PUT, with a wrong size, with another Content-Type, or after expiry, registering nothing", async () => {
    const ctx = await context();
    const started = await ctx.api.upload(ctx.portal.id, { filename: "a.pdf", contentType: "application/pdf", size: 10 });
    const fileId = started.json.file_id;
    const complete = (extra: object = {}) => ctx.api.complete(ctx.portal.id, { file_id: fileId, filename: "a.pdf", ...extra });

    const early = await complete();
    expect([early.status, early.json.error, early.json.error_description]).toEqual([
      400,
      "invalid_request",
      expect.stringMatching(/^file_id: No bytes were uploaded/),
    ]);

    await put(started.json.upload_url, "123456789", "application/pdf"); // 9 bytes, 10 announced
    const short = await complete();
    expect([short.status, short.json.error_description]).toEqual([400, "size: The stored file has 9 bytes, not the 10 announced"]);

    await put(started.json.upload_url, "1234567890", "application/pdf");
    const wrongAtComplete = await complete({ size: 11 });
    expect([wrongAtComplete.status, wrongAtComplete.json.error_description]).toEqual([400, "size: The stored file has 10 bytes, not the 11 announced"]);

    // The embedded S3 does not enforce the signed Content-Type; completion does.
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: fileStorageKey(ctx.org.id, fileId), Body: "1234567890", ContentType: "text/html" }));
    const html = await complete();
    expect([html.status, html.json.error_description]).toEqual([
      400,
      expect.stringMatching(/^file_id: The bytes were uploaded with Content-Type "text\/html"/),
    ]);

    await put(started.json.upload_url, "1234567890", "application/pdf");
    await db.fileEntry.update({ where: { id: fileId }, data: { pendingExpiresAt: new Date(Date.now() - 1000) } });
    const expired = await complete();
    expect([expired.status, expired.json.error_description]).toEqual([400, "file_id: The upload expired (pending uploads last 1 hour)"]);

    expect((await db.fileEntry.findUniqueOrThrow({ where: { id: fileId } })).status).toBe("pending");
    expect(await fileUploadedEvents(ctx.org.id)).toEqual([]);
    expect((await ctx.api.list(ctx.portal.id)).json).toEqual([]);
  });

  it("completes only uploads of this portal: another portal's or organization's file_id is 400", async () => {
    const ctx = await context();
    const other = await createTestPortal({ orgId: ctx.org.id });
    const started = await ctx.api.upload(other.id, { filename: "a.txt", contentType: "text/plain" });
    await put(started.json.upload_url, "x", "text/plain");
    for (const body of [
      { file_id: started.json.file_id, filename: "a.txt" },
      { file_id: "00000000-0000-4000-8000-000000000000", filename: "a.txt" },
    ]) {
      const res = await ctx.api.complete(ctx.portal.id, body);
      expect([res.status, res.json.error_description]).toEqual([400, "file_id: No upload with this id in this portal"]);
    }
    const foreign = await context();
    const res = await foreign.api.complete(other.id, { file_id: started.json.file_id, filename: "a.txt" });
    expect([res.status, res.json.error]).toEqual([404, "not_found"]);
  });

  it("completes an upload only for the user who started it: another member's file_id is answered as unknown", async () => {
    const ctx = await context();
    const started = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", contentType: "text/plain" });
    await put(started.json.upload_url, "x", "text/plain");
    const other = await createTestUser({ orgId: ctx.org.id, role: "member" });
    const grant = await db.oAuthGrant.create({ data: { orgId: ctx.org.id, clientId: ctx.client.id, userId: other.id, scopes: ALL_SCOPES } });
    const { token } = await issueAccessToken({ grantId: grant.id, userId: other.id, orgId: ctx.org.id, clientId: ctx.client.clientId, scopes: ALL_SCOPES });
    const res = await filesApi(token).complete(ctx.portal.id, { file_id: started.json.file_id, filename: "renamed.txt" });
    expect([res.status, res.json.error_description]).toEqual([400, "file_id: No upload with this id in this portal"]);
    const row = await db.fileEntry.findUniqueOrThrow({ where: { id: started.json.file_id } });
    expect([row.status, row.name]).toEqual(["pending", "a.txt"]);
    expect(await fileUploadedEvents(ctx.org.id)).toEqual([]);
    expect((await ctx.api.complete(ctx.portal.id, { file_id: started.json.file_id, filename: "a.txt" })).status).toBe(201);
  });

  it.each([
    ["invoice\u202Efdp.exe", "U+202E"],
    ["invoice\u2067.pdf", "U+2067"],
    ["report\u200F.pdf", "U+200F"],
    ["\u061Creport.pdf", "U+061C"],
    ["report\uFEFF.pdf", "U+FEFF"],
  ])("refuses a filename with a bidirectional or invisible character (%j) at both steps, naming the field", async (filename, codePoint) => {
    const ctx = await context();
    const expected = [400, "invalid_request", `filename: Must not contain control, invisible or bidirectional formatting characters (${codePoint})`];
    const started = await ctx.api.upload(ctx.portal.id, { filename, contentType: "text/plain" });
    expect([started.status, started.json.error, started.json.error_description]).toEqual(expected);
    const fine = await ctx.api.upload(ctx.portal.id, { filename: "invoice.pdf", contentType: "text/plain" });
    await put(fine.json.upload_url, "x", "text/plain");
    const completed = await ctx.api.complete(ctx.portal.id, { file_id: fine.json.file_id, filename });
    expect([completed.status, completed.json.error, completed.json.error_description]).toEqual(expected);
    expect(await db.fileEntry.count({ where: { orgId: ctx.org.id, status: "registered" } })).toBe(0);
  });

  it("accepts names that need ZERO WIDTH (NON-)JOINER: Persian text and emoji sequences", async () => {
    const ctx = await context();
    for (const filename of ["می\u200Cخواهم.pdf", "family \u{1F468}\u200D\u{1F469}\u200D\u{1F467}.jpg", "עברית.pdf"]) {
      const started = await ctx.api.upload(ctx.portal.id, { filename, contentType: "text/plain" });
      expect(started.status).toBe(200);
    }
  });

  it.each([
    [{}, "file_id"],
    [{ file_id: "not-a-uuid", filename: "a" }, "file_id"],
    [{ file_id: "00000000-0000-4000-8000-000000000000" }, "filename"],
    [{ file_id: "00000000-0000-4000-8000-000000000000", filename: "a", extension: "p/df" }, "extension"],
    [{ file_id: "00000000-0000-4000-8000-000000000000", filename: "a", size: -1 }, "size"],
  ])("files/complete refuses %j naming %s", async (body, field) => {
    const ctx = await context();
    const res = await ctx.api.complete(ctx.portal.id, body);
    expect([res.status, res.json.error, res.json.error_description?.split(":")[0]]).toEqual([400, "invalid_request", field]);
  });
});

describe("POST files: request checks", () => {
  it.each([
    [{}, "filename"],
    [{ filename: "" }, "filename"],
    [{ filename: "   " }, "filename"],
    [{ filename: "a".repeat(256) }, "filename"],
    [{ filename: "../../etc/passwd" }, "filename"],
    [{ filename: "dir\\a.txt" }, "filename"],
    [{ filename: "a\r\nb.txt" }, "filename"],
    [{ filename: 7 }, "filename"],
    [{ filename: "a.txt", contentType: "text/plain\r\nX-Injected: 1" }, "contentType"],
    [{ filename: "a.txt", contentType: "nonsense" }, "contentType"],
    [{ filename: "a.txt", size: 1.5 }, "size"],
    [{ filename: "a.txt", size: 2 ** 31 }, "size"],
    [{ filename: "a.txt", parent_folder_file_id: "x" }, "parent_folder_file_id"],
    [{ filename: "a.txt", task_id: "x" }, "task_id"],
  ])("refuses %j naming %s, creating nothing", async (body, field) => {
    const ctx = await context();
    const res = await ctx.api.upload(ctx.portal.id, body);
    expect([res.status, res.json.error, res.json.error_description?.split(":")[0]]).toEqual([400, "invalid_request", field]);
    expect(await db.fileEntry.count({ where: { orgId: ctx.org.id } })).toBe(0);
  });

  it("accepts 255 characters and keeps unicode names", async () => {
    const ctx = await context();
    for (const filename of ["a".repeat(251) + ".txt", "Jahresabschluss – Überblick.xlsx"]) {
      const res = await ctx.api.upload(ctx.portal.id, { filename });
      expect(res.status).toBe(200);
      expect((await db.fileEntry.findUniqueOrThrow({ where: { id: res.json.file_id } })).name).toBe(filename);
    }
  });

  it("needs a folder and a task of the same portal", async () => {
    const ctx = await context();
    const otherPortal = await createTestPortal({ orgId: ctx.org.id });
    const foreignOrg = await createTestOrg();
    const foreignPortal = await createTestPortal({ orgId: foreignOrg.id });
    const elsewhereFolder = await createTestFolder({ orgId: ctx.org.id, portalId: otherPortal.id });
    const foreignFolder = await createTestFolder({ orgId: foreignOrg.id, portalId: foreignPortal.id });
    const deletedFolder = await db.fileEntry.create({
      data: { orgId: ctx.org.id, portalId: ctx.portal.id, isFolder: true, name: "Old", deletedAt: new Date() },
    });
    const aFile = await db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, name: "a.txt", size: 1, registeredAt: new Date() } });
    const elsewhereTask = await db.task.create({ data: { orgId: ctx.org.id, portalId: otherPortal.id, title: "T" } });
    const deletedTask = await db.task.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, title: "T", deletedAt: new Date() } });

    for (const parent of [elsewhereFolder.id, foreignFolder.id, deletedFolder.id, aFile.id]) {
      const res = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", parent_folder_file_id: parent });
      expect([res.status, res.json.error_description]).toEqual([400, "parent_folder_file_id: Not a folder of this portal"]);
    }
    for (const task of [elsewhereTask.id, deletedTask.id]) {
      const res = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", task_id: task });
      expect([res.status, res.json.error_description]).toEqual([400, "task_id: Not a task of this portal"]);
    }
    expect(await db.fileEntry.count({ where: { orgId: ctx.org.id, status: "pending" } })).toBe(0);
  });

  it("is 404 for another organization's portal or a malformed id, and needs file:upload", async () => {
    const ctx = await context();
    const foreign = await createTestPortal({ orgId: (await createTestOrg()).id });
    for (const id of [foreign.id, "nope"]) {
      const res = await ctx.api.upload(id, { filename: "a.txt" });
      expect([res.status, res.json.error]).toEqual([404, "not_found"]);
    }
    expect(await db.fileEntry.count({ where: { portalId: foreign.id } })).toBe(0);
    const readOnly = await context({ scopes: ["file:list"] });
    const res = await readOnly.api.upload(readOnly.portal.id, { filename: "a.txt" });
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
    const complete = await readOnly.api.complete(readOnly.portal.id, { file_id: "00000000-0000-4000-8000-000000000000", filename: "a" });
    expect([complete.status, complete.json.error]).toEqual([403, "insufficient_scope"]);
  });

  it("honours Idempotency-Key: a retried start replays the same ticket and creates one pending record", async () => {
    const ctx = await context();
    const first = await ctx.api.upload(ctx.portal.id, { filename: "a.txt" }, { "Idempotency-Key": "up-1" });
    const retry = await ctx.api.upload(ctx.portal.id, { filename: "a.txt" }, { "Idempotency-Key": "up-1" });
    expect([first.status, retry.status, retry.headers.get("idempotent-replayed")]).toEqual([200, 200, "true"]);
    expect(retry.text).toBe(first.text);
    expect(await db.fileEntry.count({ where: { orgId: ctx.org.id } })).toBe(1);
  });
});

describe("GET files", () => {
  it("lists registered, not deleted files and folders flat, with D10 fields, paged by created_at then id", async () => {
    const ctx = await context();
    const base = Date.now() - 60_000;
    const folder = await db.fileEntry.create({
      data: { orgId: ctx.org.id, portalId: ctx.portal.id, isFolder: true, name: "Tax", createdAt: new Date(base), registeredAt: new Date(base) },
    });
    const inFolder = await db.fileEntry.create({
      data: {
        orgId: ctx.org.id,
        portalId: ctx.portal.id,
        parentId: folder.id,
        name: "w2.pdf",
        extension: "pdf",
        size: 42,
        contentType: "application/pdf",
        uploadedById: ctx.user.id,
        createdAt: new Date(base + 1),
        registeredAt: new Date(base + 2),
      },
    });
    const root = await db.fileEntry.create({
      data: {
        orgId: ctx.org.id,
        portalId: ctx.portal.id,
        name: "id.png",
        extension: "png",
        size: 7,
        createdAt: new Date(base + 3),
        registeredAt: new Date(base + 3),
      },
    });
    await db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, name: "gone.txt", deletedAt: new Date() } });
    await db.fileEntry.create({
      data: { orgId: ctx.org.id, portalId: ctx.portal.id, name: "pending.txt", status: "pending", pendingExpiresAt: new Date(Date.now() + 3600_000) },
    });
    const otherPortal = await createTestPortal({ orgId: ctx.org.id });
    await db.fileEntry.create({ data: { orgId: ctx.org.id, portalId: otherPortal.id, name: "elsewhere.txt" } });

    const all = await ctx.api.list(ctx.portal.id);
    expect(all.status).toBe(200);
    expect(all.headers.get("link")).toBeNull();
    expect(all.json.map((f) => f.id)).toEqual([folder.id, inFolder.id, root.id]);
    expect(all.json[0]).toMatchObject({ is_folder: true, size: 0, extension: "", content_type: null, parent_folder_file_id: null, uploaded_by: null });
    expect(all.json[1]).toEqual({
      id: inFolder.id,
      name: "w2.pdf",
      vault_id: ctx.portal.id,
      org_id: ctx.org.id,
      size: 42,
      extension: "pdf",
      parent_folder_file_id: folder.id,
      uploaded_at: new Date(base + 2).toISOString(),
      uploaded_by: ctx.user.id,
      is_folder: false,
      content_type: "application/pdf",
      task_id: null,
      web_url: expect.stringMatching(new RegExp(`/org/${ctx.org.id}/vault/${ctx.portal.id}/folder/main\\?file=${inFolder.id}$`)),
    });
    // Metadata only: no storage key, no download link.
    expect(all.text).not.toContain("orgs/");

    const page1 = await ctx.api.list(ctx.portal.id, "?limit=2");
    expect(page1.json.map((f) => f.id)).toEqual([folder.id, inFolder.id]);
    const next = /<([^>]+)>; rel="next"/.exec(page1.headers.get("link") ?? "")?.[1];
    expect(next).toBeDefined();
    const nextUrl = new URL(next!);
    const page2 = await ctx.api.list(ctx.portal.id, nextUrl.search);
    expect(page2.json.map((f) => f.id)).toEqual([root.id]);
    expect(page2.headers.get("link")).toBeNull();

    const bad = await ctx.api.list(ctx.portal.id, "?cursor=zzz");
    expect([bad.status, bad.json.error]).toEqual([400, "invalid_request"]);
  });

  it("is 404 for another organization's portal or a malformed id, and needs file:list", async () => {
    const ctx = await context();
    const foreign = await createTestPortal({ orgId: (await createTestOrg()).id });
    await db.fileEntry.create({ data: { orgId: foreign.orgId, portalId: foreign.id, name: "secret.txt" } });
    for (const id of [foreign.id, "nope"]) {
      const res = await ctx.api.list(id);
      expect([res.status, res.json.error]).toEqual([404, "not_found"]);
    }
    const uploadOnly = await context({ scopes: ["file:upload"] });
    const res = await uploadOnly.api.list(uploadOnly.portal.id);
    expect([res.status, res.json.error]).toEqual([403, "insufficient_scope"]);
  });
});

describe("storage keys", () => {
  it("never contain the file name", async () => {
    const ctx = await context();
    const started = await ctx.api.upload(ctx.portal.id, { filename: "evil name ..%2f.txt", contentType: "text/plain" });
    await put(started.json.upload_url, "x", "text/plain");
    expect(await objectKeys(ctx.org.id)).toEqual([`orgs/${ctx.org.id}/files/${started.json.file_id}`]);
  });
});
