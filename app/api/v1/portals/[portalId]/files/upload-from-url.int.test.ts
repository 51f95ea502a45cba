import type { ServerResponse } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { viewerFromApiAuth } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { isScope } from "@/lib/access/scopes";
import { startServer, type TestServer } from "@/lib/test-support/test-servers";
import { fileStorageKey } from "@/lib/storage/s3";
import { createApiContext, createTestPortal } from "@/lib/test-support/fixtures";
import { fileUploadedEvents, filesApi, type UploadedJson } from "@/test/routes/files-api";
import { objectBytes, objectKeys, removeObjects } from "@/lib/test-support/storage";
import { uploadFromUrl } from "@/lib/files/upload-from-url";

// One-step uploads (file_url): fetched through lib/outbound and streamed into the embedded S3.
// With OUTBOUND_ALLOW_PRIVATE=true a loopback server stands in for a public one; without it every
// internal address is refused before a socket exists (the counting server sees 0 connections).

const MB = 1024 * 1024;
const savedEnv = { ...process.env };
const servers: TestServer[] = [];
const orgs: string[] = [];

function allowPrivate(on: boolean) {
  if (on) process.env.OUTBOUND_ALLOW_PRIVATE = "true";
  else delete process.env.OUTBOUND_ALLOW_PRIVATE;
  resetEnvForTests();
}
async function server(...args: Parameters<typeof startServer>) {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}
async function context() {
  const ctx = await createApiContext({ scopes: ["file:upload", "file:list"] });
  orgs.push(ctx.org.id);
  const portal = await createTestPortal({ orgId: ctx.org.id });
  return { ...ctx, portal, api: filesApi(ctx.token) };
}

beforeAll(() => allowPrivate(true));
afterEach(async () => {
  allowPrivate(true);
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(orgs.splice(0).map(removeObjects));
});
afterAll(() => {
  process.env = savedEnv;
  resetEnvForTests();
});

/** Writes `total` bytes in 64 KiB chunks under backpressure; stops when the connection closes. */
function sendBytes(res: ServerResponse, total: number): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  let closed = false;
  res.on("close", () => (closed = true));
  res.on("error", () => undefined);
  const pump = () => {
    while (sent < total && !closed) {
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once("drain", pump);
        return;
      }
    }
    if (!closed) res.end();
  };
  pump();
}

async function expectNothingStored(orgId: string) {
  expect(await db.fileEntry.count({ where: { orgId } })).toBe(0);
  expect(await objectKeys(orgId)).toEqual([]);
  expect(await fileUploadedEvents(orgId)).toEqual([]);
}

describe("one-step upload from file_url", () => {
  it("fetches from a loopback server (OUTBOUND_ALLOW_PRIVATE=true), stores the bytes and registers the file", async () => {
    const ctx = await context();
    const task = await db.task.create({ data: { orgId: ctx.org.id, portalId: ctx.portal.id, title: "Send it", actionType: "FileRequest" } });
    const bytes = Buffer.from("col1,col2\n1,2\n");
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "text/csv; charset=utf-8" }).end(bytes);
    });
    const res = await ctx.api.upload<UploadedJson>(ctx.portal.id, { filename: "ledger.CSV", file_url: `${s.url}/ledger`, task_id: task.id });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ id: expect.any(String), name: "ledger.CSV", extension: "csv", size: bytes.length, created_date: expect.any(String) });
    const id = res.json.id;
    expect(await objectBytes(fileStorageKey(ctx.org.id, id))).toEqual(bytes);
    expect(await db.fileEntry.findUniqueOrThrow({ where: { id } })).toMatchObject({
      status: "registered",
      contentType: "text/csv; charset=utf-8",
      taskId: task.id,
      uploadedById: ctx.user.id,
      uploadedViaClientId: ctx.client.id,
    });
    expect((await db.task.findUniqueOrThrow({ where: { id: task.id } })).status).toBe("Open");
    expect((await fileUploadedEvents(ctx.org.id)).map((e) => e.data)).toEqual([
      {
        file_id: id,
        name: "ledger.CSV",
        extension: "csv",
        size: bytes.length,
        content_type: "text/csv; charset=utf-8",
        uploaded_by: ctx.user.id,
        uploaded_by_email: ctx.user.email,
        uploaded_by_name: ctx.user.name,
        task_id: task.id,
      },
    ]);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "file.uploaded", targetId: id } })).toBe(1);
    expect((await db.portal.findUniqueOrThrow({ where: { id: ctx.portal.id } })).lastActivityAt).not.toBeNull();
    const listed = await ctx.api.list(ctx.portal.id);
    expect(listed.json.map((f) => [f.id, f.task_id, f.content_type])).toEqual([[id, task.id, "text/csv; charset=utf-8"]]);
  });

  it("streams a 20 MB body through a multipart upload, and an explicit contentType wins", async () => {
    const ctx = await context();
    const s = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      sendBytes(res, 20 * MB + 123);
    });
    const res = await ctx.api.upload<UploadedJson>(ctx.portal.id, { filename: "scan.pdf", contentType: "application/pdf", file_url: s.url });
    expect([res.status, res.json.size]).toEqual([201, 20 * MB + 123]);
    const stored = await objectBytes(fileStorageKey(ctx.org.id, res.json.id));
    expect(stored.length).toBe(20 * MB + 123);
    expect(stored.every((b) => b === 0x61)).toBe(true);
    expect((await db.fileEntry.findUniqueOrThrow({ where: { id: res.json.id } })).contentType).toBe("application/pdf");
  });

  it("refuses a 101 MB body (announced or not) with 400, storing nothing", async () => {
    const ctx = await context();
    const unannounced = await server((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      sendBytes(res, 101 * MB);
    });
    const res = await ctx.api.upload(ctx.portal.id, { filename: "big.bin", file_url: unannounced.url });
    expect([res.status, res.json.error, res.json.error_description]).toEqual([400, "invalid_request", "file_url: The file is larger than 100 MB"]);
    await expectNothingStored(ctx.org.id);

    const announced = await server((_req, res) => {
      res.writeHead(200, { "content-length": String(101 * MB) });
      sendBytes(res, 101 * MB);
    });
    const again = await ctx.api.upload(ctx.portal.id, { filename: "big.bin", file_url: announced.url });
    expect([again.status, again.json.error_description]).toEqual([400, "file_url: The file is larger than 100 MB"]);
    await expectNothingStored(ctx.org.id);
  });

  it("refuses a non-2xx answer and an unreachable server with 400", async () => {
    const ctx = await context();
    const s = await server((_req, res) => {
      res.writeHead(404).end("missing");
    });
    const res = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", file_url: s.url });
    expect([res.status, res.json.error_description]).toEqual([400, "file_url: The server answered with status 404"]);
    const port = s.port;
    await s.close();
    const closed = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", file_url: `http://127.0.0.1:${port}/` });
    expect([closed.status, closed.json.error_description]).toEqual([400, "file_url: The server could not be reached"]);
    const notUrl = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", file_url: "not a url" });
    expect([notUrl.status, notUrl.json.error_description]).toEqual([400, "file_url: Not a valid URL"]);
    await expectNothingStored(ctx.org.id);
  });

  it("checks the folder and task before fetching anything", async () => {
    const ctx = await context();
    const s = await server();
    const res = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", file_url: s.url, task_id: "00000000-0000-4000-8000-000000000000" });
    expect([res.status, res.json.error_description]).toEqual([400, "task_id: Not a task of this portal"]);
    expect(s.connections).toBe(0);
  });

  it("without OUTBOUND_ALLOW_PRIVATE, refuses the loopback server that worked with it", async () => {
    const ctx = await context();
    const s = await server((_req, res) => {
      res.end("hello");
    });
    allowPrivate(false);
    for (const url of [s.url, `https://127.0.0.1:${s.port}/`]) {
      const res = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", file_url: url });
      expect([res.status, res.json.error]).toEqual([400, "invalid_request"]);
    }
    expect(s.connections).toBe(0);
    await expectNothingStored(ctx.org.id);
  });

  it("without OUTBOUND_ALLOW_PRIVATE, refuses the D24 matrix with 400 and makes no connection", async () => {
    const ctx = await context();
    const counting = await server();
    allowPrivate(false);
    const p = counting.port;
    const privateUrls = [
      `https://127.0.0.1:${p}/f`,
      `https://localhost:${p}/f`,
      `https://[::1]:${p}/f`,
      `https://10.0.0.1:${p}/f`,
      `https://10.255.255.254/f`,
      `https://172.16.0.1/f`,
      `https://172.31.255.1/f`,
      `https://192.168.1.1/f`,
      `https://169.254.169.254/latest/meta-data/`,
      `https://100.64.0.1/f`,
      `https://100.127.255.254/f`,
      `https://[::ffff:127.0.0.1]:${p}/f`,
      `https://[fd00::1]/f`,
      `https://[fdff:ffff::1]/f`,
      `https://0.0.0.0:${p}/f`,
      `https://2130706433:${p}/f`,
      `https://0x7f000001:${p}/f`,
      `https://0x7f.0.0.1:${p}/f`,
      `https://017700000001:${p}/f`,
      `https://127.1:${p}/f`,
    ];
    for (const url of privateUrls) {
      const res = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", file_url: url });
      expect([url, res.status, res.json.error, res.json.error_description]).toEqual([
        url,
        400,
        "invalid_request",
        "file_url: The host is not a public address",
      ]);
    }
    for (const url of [`http://127.0.0.1:${p}/f`, "http://example.com/f", "ftp://example.com/f", "file:///etc/passwd"]) {
      const res = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", file_url: url });
      expect([url, res.status, res.json.error_description]).toEqual([url, 400, "file_url: Only https URLs are accepted"]);
    }
    expect(counting.connections).toBe(0);
    await expectNothingStored(ctx.org.id);
  });

  it("refuses a redirect from an allowed host to a private one, connecting only to the first", async () => {
    const ctx = await context();
    const internal = await server((_req, res) => {
      res.end("internal secret");
    });
    const open = await server((_req, res) => {
      res.writeHead(302, { location: `http://127.0.0.1:${internal.port}/secret` }).end();
    });
    allowPrivate(false);
    // As in production, except that the first loopback server counts as a public host and plain
    // http is allowed: only the address rule refuses the second hop.
    const policy = { allowPrivate: false, allowHttp: true, publicEndpoints: [`127.0.0.1:${open.port}`] };
    const error = await uploadFromUrl({
      viewer: viewerFromApiAuth({
        orgId: ctx.org.id,
        userId: ctx.user.id,
        role: "admin",
        clientId: ctx.client.clientId,
        clientRecordId: ctx.client.id,
        scopes: ctx.grant.scopes.filter(isScope),
      }),
      portalId: ctx.portal.id,
      filename: "a.txt",
      fileUrl: `${open.url}/start`,
      policy,
    }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "invalid_request", message: "file_url: The host is not a public address" });
    expect(open.connections).toBe(1);
    expect(internal.connections).toBe(0);
    await expectNothingStored(ctx.org.id);
  });

  it("follows at most 3 redirects", async () => {
    const ctx = await context();
    const target = await server((_req, res) => {
      res.end("ok");
    });
    const hop = await server((req, res) => {
      const n = Number(new URL(req.url ?? "/", "http://x").searchParams.get("n") ?? "0");
      res.writeHead(302, { location: n <= 1 ? `${target.url}/` : `/?n=${n - 1}` }).end();
    });
    const three = await ctx.api.upload<UploadedJson>(ctx.portal.id, { filename: "a.txt", file_url: `${hop.url}/?n=3` });
    expect([three.status, three.json.size]).toEqual([201, 2]);
    const four = await ctx.api.upload(ctx.portal.id, { filename: "a.txt", file_url: `${hop.url}/?n=4` });
    expect([four.status, four.json.error_description]).toEqual([400, "file_url: More than 3 redirects"]);
  });
});
