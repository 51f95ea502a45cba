import { createHash, randomBytes } from "node:crypto";
import { InngestTestEngine } from "@inngest/test";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { partnerPush, partnerPushPlan, partnerVerifyLink } from "@/inngest/functions/partner";
import { relayedEvent } from "@/inngest/functions/test-support/webhook-fixtures";
import { getUserViewer, systemViewer, type Viewer } from "@/lib/access/viewer";
import { encrypt } from "@/lib/crypto";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { isAppError } from "@/lib/errors";
import { startInngestReceiver, type InngestReceiver } from "@/lib/events/test-support/inngest-receiver";
import { completeUpload } from "@/lib/files/complete-upload";
import { startUpload } from "@/lib/files/start-upload";
import { connectPartner, disconnectPartner, getPartnerConnection, testPartnerCredentials } from "@/lib/partner/connection";
import { listPartnerPushStatuses, resendPartnerPush } from "@/lib/partner/push";
import { refreshPartnerLinkIfStale } from "@/lib/partner/verify-link";
import { getPortal as getPortalRecord } from "@/lib/portals/get-portal";
import { toPortalResponse } from "@/lib/portals/to-response";
import { updatePortal } from "@/lib/portals/update-portal";
import { completeTask } from "@/lib/tasks/complete-task";
import { createTask } from "@/lib/tasks/create-task";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser, createTestWorkflowStates } from "@/lib/test-support/fixtures";
import { removeObjectsAfterEach } from "@/lib/test-support/storage";
import { SANDBOX_API_KEY, startPartnerSandbox, type PartnerSandbox } from "@/scripts/partner-sandbox";

// The partner integration end to end below the web: domain functions and the three partner functions (driven by
// @inngest/test, sleeps mocked) against the sandbox partner over real loopback HTTP, real
// PostgreSQL and real S3-compatible storage. A loopback server stands in for Inngest's event API.

const savedEnv = { ...process.env };
/** The Portal as the API returns it. */
const getPortal = async (input: { viewer: Viewer; portalId: string }) => toPortalResponse(await getPortalRecord(input));
let inngestApi: InngestReceiver;
let sandbox: PartnerSandbox;
const cleanObjects = removeObjectsAfterEach();

beforeAll(async () => {
  inngestApi = await startInngestReceiver();
  sandbox = await startPartnerSandbox();
  Object.assign(process.env, { INNGEST_BASE_URL: inngestApi.url, INNGEST_DEV: "1", OUTBOUND_ALLOW_PRIVATE: "true" });
  delete process.env.INNGEST_EVENT_KEY;
  delete process.env.PARTNER_RETRY_BASE_SECONDS;
  delete process.env.PARTNER_RETRY_WINDOW_HOURS;
  delete process.env.PARTNER_API_URL;
  resetEnvForTests();
});

beforeEach(() => {
  sandbox.failNext(0);
});

afterEach(() => {
  delete process.env.PARTNER_RETRY_WINDOW_HOURS;
  resetEnvForTests();
});

afterAll(async () => {
  await sandbox.close();
  await inngestApi.close();
  process.env = savedEnv;
  resetEnvForTests();
});

interface Ctx {
  orgId: string;
  admin: Viewer;
  portalId: string;
}

async function connectedOrg(): Promise<Ctx> {
  const org = await createTestOrg();
  const user = await createTestUser({ orgId: org.id, role: "admin" });
  const admin = await getUserViewer(user.id, org.id);
  await connectPartner({ viewer: admin, apiUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
  const portal = await createTestPortal({ orgId: org.id });
  cleanObjects(org.id);
  return { orgId: org.id, admin, portalId: portal.id };
}

/** The org's events of a type, oldest first. */
function eventsOf(orgId: string, type: string) {
  return db.event.findMany({ where: { orgId, type }, orderBy: [{ occurredAt: "asc" }, { id: "asc" }] });
}

async function lastEvent(orgId: string, type: string) {
  const rows = await eventsOf(orgId, type);
  const row = rows.at(-1);
  if (!row) throw new Error(`no ${type} event`);
  return row;
}

/** Saves the partner id as the API and web do, then runs the verification job of its event. */
async function setPartnerId(ctx: Ctx, id: string | null, portalId = ctx.portalId) {
  await updatePortal({ viewer: ctx.admin, portalId, externalSystemIds: { partner: id } });
  const changed = await lastEvent(ctx.orgId, "partner.link_changed");
  await new InngestTestEngine({ function: partnerVerifyLink, events: [relayedEvent(changed)] }).execute();
  return (await getPortal({ viewer: ctx.admin, portalId })).partner_link;
}

/** Sleeps return at once. A fresh array per run: the engine records the run's steps into the one it is given. */
const sleeps = () => Array.from({ length: 80 }, (_, i) => ({ id: `sleep-${i + 1}`, handler: () => undefined }));

/** Plans the push of an event row and, when one was made, runs its attempt series. */
async function pushEvent(row: { id: string; orgId: string; portalId: string | null; type: string; data: unknown }) {
  const planned = await new InngestTestEngine({ function: partnerPushPlan, events: [relayedEvent(row)] }).execute();
  const plan = planned.result as { pushId?: string; created?: boolean; skipped?: string };
  if (!plan.pushId) return { plan, run: null };
  return { plan, run: await runPush(plan.pushId) };
}

function runPush(pushId: string) {
  return new InngestTestEngine({ function: partnerPush, events: [{ name: "partner/push.requested", data: { push_id: pushId } }], steps: sleeps() }).execute();
}

/** Uploads through the two-step flow (startUpload, PUT to storage, completeUpload); returns the file and its bytes' SHA-256. */
async function upload(ctx: Ctx, bytes: Buffer, filename = "statement.pdf") {
  const ticket = await startUpload({ viewer: ctx.admin, portalId: ctx.portalId, filename, contentType: "application/pdf", size: bytes.length });
  const put = await fetch(ticket.uploadUrl, { method: "PUT", body: new Uint8Array(bytes), headers: { "content-type": ticket.contentType } });
  expect(put.status).toBe(200);
  const file = await completeUpload({ viewer: ctx.admin, portalId: ctx.portalId, fileId: ticket.fileId, filename });
  return { file, sha256: createHash("sha256").update(bytes).digest("hex") };
}

const logOf = (kind: string, key?: string) => sandbox.log.filter((e) => e.kind === kind && (key === undefined || ("key" in e && e.key.startsWith(key))));

async function audit(portalId: string, prefix: string) {
  return db.auditLog.findMany({ where: { portalId, action: { startsWith: prefix } }, orderBy: { createdAt: "asc" } });
}

describe("connecting the partner", () => {
  it("refuses a rejected key naming the field, and stores accepted credentials encrypted", async () => {
    const org = await createTestOrg();
    const admin = await getUserViewer((await createTestUser({ orgId: org.id, role: "admin" })).id, org.id);
    const refused = await testPartnerCredentials({ viewer: admin, apiUrl: sandbox.url, apiKey: "wrong" }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.field).toBe("apiKey");
    const down = await connectPartner({ viewer: admin, apiUrl: "http://127.0.0.1:9", apiKey: SANDBOX_API_KEY }).catch((e: unknown) => e);
    expect(isAppError(down) && down.field).toBe("apiUrl");
    expect(await db.partnerConnection.count({ where: { orgId: org.id } })).toBe(0);

    const status = await connectPartner({ viewer: admin, apiUrl: sandbox.url, apiKey: SANDBOX_API_KEY });
    expect(status).toMatchObject({ connected: true, apiUrl: sandbox.url, apiKeyHint: SANDBOX_API_KEY.slice(-4) });
    const row = await db.partnerConnection.findUniqueOrThrow({ where: { orgId: org.id } });
    expect(row.credentialsEncrypted).not.toContain(SANDBOX_API_KEY);
    expect(row.credentialsEncrypted).toMatch(/^v1\./);

    expect(await disconnectPartner({ viewer: admin })).toMatchObject({ connected: false });
    expect(await getPartnerConnection({ viewer: admin })).toMatchObject({ connected: false, apiUrl: null });
  });
});

describe("link verification", () => {
  it("123456 (known) becomes linked with the sandbox's tenant and name", async () => {
    const ctx = await connectedOrg();
    await updatePortal({ viewer: ctx.admin, portalId: ctx.portalId, externalSystemIds: { partner: "123456" } });
    expect((await getPortal({ viewer: ctx.admin, portalId: ctx.portalId })).partner_link).toMatchObject({ status: "verifying", customer_id: "123456" });
    const link = await setPartnerId(ctx, "123456");
    expect(link).toMatchObject({ status: "linked", customer_id: "123456", tenant_id: "tenant-sandbox-1", display_name: "Sandbox Accounting Ltd" });
    expect(link?.verified_at).toBeInstanceOf(Date);
    expect((await audit(ctx.portalId, "partner_link.")).map((a) => a.action)).toContain("partner_link.linked");
  });

  it("an unknown id gives not_found", async () => {
    const ctx = await connectedOrg();
    expect(await setPartnerId(ctx, "999999")).toMatchObject({ status: "not_found", customer_id: "999999", error: "The partner has no customer 999999" });
  });

  it("rejected credentials give credential_rejected", async () => {
    const ctx = await connectedOrg();
    await db.partnerConnection.update({
      where: { orgId: ctx.orgId },
      data: { credentialsEncrypted: encrypt(JSON.stringify({ apiUrl: sandbox.url, apiKey: "revoked" })) },
    });
    expect(await setPartnerId(ctx, "123456")).toMatchObject({ status: "credential_rejected" });
  });

  it("the partner down gives error, with the reason", async () => {
    const ctx = await connectedOrg();
    const down = await startPartnerSandbox();
    await down.close();
    await db.partnerConnection.update({
      where: { orgId: ctx.orgId },
      data: { credentialsEncrypted: encrypt(JSON.stringify({ apiUrl: down.url, apiKey: SANDBOX_API_KEY })) },
    });
    const link = await setPartnerId(ctx, "123456");
    expect(link).toMatchObject({ status: "error" });
    expect(link?.error).toMatch(/could not be reached/);
  });

  it("clearing gives unlinked and the sandbox receives portal.unlinked", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    expect(await setPartnerId(ctx, null)).toMatchObject({ status: "unlinked", customer_id: "123456" });
    const { run } = await pushEvent(await lastEvent(ctx.orgId, "portal.unlinked"));
    expect(run?.result).toMatchObject({ outcome: "succeeded" });
    const notice = sandbox.log.find(
      (e) => e.kind === "notice" && e.event === "portal.unlinked" && (e.data as { portal_id?: string }).portal_id === ctx.portalId,
    );
    expect(notice).toMatchObject({ customer_id: "123456", duplicate: false });
  });

  it("the same id on a second portal of the organization is 409", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    const other = await createTestPortal({ orgId: ctx.orgId });
    const error = await updatePortal({ viewer: ctx.admin, portalId: other.id, externalSystemIds: { partner: "123456" } }).catch((e: unknown) => e);
    expect(isAppError(error) && error.status).toBe(409);
  });

  it("re-verifies a link verified more than 24 hours ago when the page opens", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    expect(await refreshPartnerLinkIfStale({ viewer: ctx.admin, portalId: ctx.portalId })).toMatchObject({ connected: true, link: { status: "linked" } });
    const old = new Date(Date.now() - 25 * 3600 * 1000);
    await db.partnerLink.update({ where: { portalId: ctx.portalId }, data: { verifiedAt: old } });
    const before = (await eventsOf(ctx.orgId, "partner.link_changed")).length;

    expect(await refreshPartnerLinkIfStale({ viewer: ctx.admin, portalId: ctx.portalId })).toMatchObject({ connected: true, link: { status: "verifying" } });
    // A second view while it runs starts nothing more.
    await refreshPartnerLinkIfStale({ viewer: ctx.admin, portalId: ctx.portalId });
    const changes = await eventsOf(ctx.orgId, "partner.link_changed");
    expect(changes).toHaveLength(before + 1);
    await new InngestTestEngine({ function: partnerVerifyLink, events: [relayedEvent(changes.at(-1)!)] }).execute();
    const link = await db.partnerLink.findUniqueOrThrow({ where: { portalId: ctx.portalId } });
    expect(link.status).toBe("linked");
    expect(link.verifiedAt!.getTime()).toBeGreaterThan(old.getTime() + 24 * 3600 * 1000);
  });

  it("re-verifies a stale link on the next file event before pushing", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    await db.partnerLink.update({ where: { portalId: ctx.portalId }, data: { verifiedAt: new Date(Date.now() - 25 * 3600 * 1000) } });
    const verifies = logOf("verify").length;
    const { file } = await upload(ctx, randomBytes(1000));
    const { run } = await pushEvent(await lastEvent(ctx.orgId, "file.uploaded"));
    expect(run?.result).toMatchObject({ outcome: "succeeded" });
    expect(logOf("verify").length).toBe(verifies + 1);
    const link = await db.partnerLink.findUniqueOrThrow({ where: { portalId: ctx.portalId } });
    expect(Date.now() - link.verifiedAt!.getTime()).toBeLessThan(60_000);
    expect(logOf("upload_received", file.id)).toHaveLength(1);
  });
});

describe("pushes", () => {
  it("an upload on a linked portal arrives with a matching SHA-256; handled twice it uploads once", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    const bytes = randomBytes(300_000);
    const { file, sha256 } = await upload(ctx, bytes);
    const event = await lastEvent(ctx.orgId, "file.uploaded");
    // Before the job engine planned it, the fresh upload shows as sending.
    expect(await listPartnerPushStatuses({ viewer: ctx.admin, portalId: ctx.portalId })).toMatchObject({ [file.id]: { status: "sending", attempts: 0 } });

    const first = await pushEvent(event);
    expect(first.plan).toMatchObject({ created: true });
    expect(first.run?.result).toMatchObject({ outcome: "succeeded", attempt: 1, duplicate: false });
    const received = logOf("upload_received", file.id);
    expect(received).toEqual([
      { kind: "upload_received", key: `${file.id}:file.uploaded`, customer_id: "123456", file_id: file.id, sha256, size: bytes.length },
    ]);

    // The same event again (a redelivery): the plan finds the push, its run stops at once.
    const second = await pushEvent(event);
    expect(second.plan).toEqual({ pushId: first.plan.pushId, created: false });
    expect(second.run?.result).toEqual({ outcome: "stopped", reason: "not_pending" });
    // A second push row for the same (file, event) meets the partner's idempotency: nothing uploaded again.
    const again = await db.partnerPush.create({
      data: { orgId: ctx.orgId, portalId: ctx.portalId, entityId: file.id, fileId: file.id, event: "file.uploaded", customerId: "123456", generation: 1 },
    });
    expect((await runPush(again.id)).result).toMatchObject({ outcome: "succeeded", duplicate: true });
    expect(logOf("upload_received", file.id)).toHaveLength(1);

    expect(await listPartnerPushStatuses({ viewer: ctx.admin, portalId: ctx.portalId })).toMatchObject({ [file.id]: { status: "sent", attempts: 1 } });
    const history = await audit(ctx.portalId, "partner_push.");
    expect(history.map((a) => [a.action, a.targetId])).toEqual([
      ["partner_push.succeeded", file.id],
      ["partner_push.succeeded", file.id],
    ]);
  });

  it("three transient failures then success: one upload, the attempts in the history, backoff 1, 2, 4 min", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    const { file } = await upload(ctx, randomBytes(10_000));
    sandbox.failNext(3);
    const { run } = await pushEvent(await lastEvent(ctx.orgId, "file.uploaded"));
    expect(run?.result).toMatchObject({ outcome: "succeeded", attempt: 4 });
    expect(logOf("injected_failure")).not.toHaveLength(0);
    expect(logOf("upload_received", file.id)).toHaveLength(1);
    const sleepCalls = (run!.ctx.step.sleep as unknown as { mock: { calls: unknown[][] } }).mock.calls.map((c) => [c[0], c[1]]);
    expect(sleepCalls).toEqual([
      ["sleep-1", "60s"],
      ["sleep-2", "120s"],
      ["sleep-3", "240s"],
    ]);
    const history = await audit(ctx.portalId, "partner_push.");
    expect(history.map((a) => [a.action, (a.metadata as { attempt: number }).attempt])).toEqual([
      ["partner_push.attempt_failed", 1],
      ["partner_push.attempt_failed", 2],
      ["partner_push.attempt_failed", 3],
      ["partner_push.succeeded", 4],
    ]);
    expect((history[0]?.metadata as { error: string }).error).toMatch(/503/);
    const push = await db.partnerPush.findFirstOrThrow({ where: { fileId: file.id }, include: { attempts: true } });
    expect(push).toMatchObject({ status: "succeeded", attemptCount: 4 });
    expect(push.attempts.map((a) => a.success).sort()).toEqual([false, false, false, true]);
  });

  it("a failure past the window marks the file failed, and Resend pushes it", async () => {
    // A 7-minute window: attempts at 0, 1, 3 and 7 minutes, the next would be past it.
    process.env.PARTNER_RETRY_WINDOW_HOURS = String(7.5 / 60);
    resetEnvForTests();
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    const { file, sha256 } = await upload(ctx, randomBytes(20_000));
    sandbox.failNext(1000);
    const { run } = await pushEvent(await lastEvent(ctx.orgId, "file.uploaded"));
    expect(run?.result).toMatchObject({ outcome: "failed", attempt: 4 });
    expect(await listPartnerPushStatuses({ viewer: ctx.admin, portalId: ctx.portalId })).toMatchObject({ [file.id]: { status: "failed", attempts: 4 } });
    expect((await audit(ctx.portalId, "partner_push.failed")).map((a) => a.targetId)).toEqual([file.id]);
    sandbox.failNext(0);

    const resent = await resendPartnerPush({ viewer: ctx.admin, portalId: ctx.portalId, fileId: file.id });
    expect(resent).toMatchObject({ status: "sending", attempts: 0 });
    // Resending again while it is under way is refused.
    await expect(resendPartnerPush({ viewer: ctx.admin, portalId: ctx.portalId, fileId: file.id })).rejects.toMatchObject({ code: "invalid_request" });
    const request = await lastEvent(ctx.orgId, "partner/push.requested");
    const { push_id: pushId } = request.data as { push_id: string };
    expect((await runPush(pushId)).result).toMatchObject({ outcome: "succeeded", attempt: 1 });
    expect(logOf("upload_received", file.id)).toMatchObject([{ sha256 }]);
    expect(await listPartnerPushStatuses({ viewer: ctx.admin, portalId: ctx.portalId })).toMatchObject({ [file.id]: { status: "sent" } });
    expect((await audit(ctx.portalId, "partner_push.resent")).map((a) => a.actorUserId)).toEqual([(ctx.admin as { userId: string }).userId]);
  });

  it("sends task.created, task.completed and portal.workflow_changed as notices, once each", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    const [state] = await createTestWorkflowStates(ctx.orgId, ["In review"]);
    const { taskId } = await createTask({ viewer: ctx.admin, portalId: ctx.portalId, title: "Send the bank statements" });
    await completeTask({ viewer: ctx.admin, taskId });
    await updatePortal({ viewer: ctx.admin, portalId: ctx.portalId, workflowStateId: state!.id, workflowStateName: "In review" });
    for (const type of ["task.created", "task.completed", "portal.workflow_changed"]) {
      const row = await lastEvent(ctx.orgId, type);
      expect((await pushEvent(row)).run?.result).toMatchObject({ outcome: "succeeded" });
      expect((await pushEvent(row)).run?.result).toEqual({ outcome: "stopped", reason: "not_pending" });
    }
    const notices = sandbox.log.filter((e) => e.kind === "notice" && (e.data as { portal_id?: string }).portal_id === ctx.portalId);
    expect(notices.map((n) => n.kind === "notice" && [n.event, n.entity_id, n.duplicate])).toEqual([
      ["task.created", taskId, false],
      ["task.completed", taskId, false],
      ["portal.workflow_changed", (await lastEvent(ctx.orgId, "portal.workflow_changed")).id, false],
    ]);
    expect(notices[2]).toMatchObject({ data: { workflow_state_name: "In review" } });
  });

  it("pushes nothing for a portal that is not linked", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "999999");
    await upload(ctx, randomBytes(100));
    const { plan, run } = await pushEvent(await lastEvent(ctx.orgId, "file.uploaded"));
    expect(plan).toEqual({ skipped: "the portal is not linked" });
    expect(run).toBeNull();
  });

  it("a pushed file emails the portal's guests (the guest download notification)", async () => {
    const ctx = await connectedOrg();
    await setPartnerId(ctx, "123456");
    const guest = await createTestGuest({ orgId: ctx.orgId, portalId: ctx.portalId });
    const { file } = await upload(ctx, randomBytes(100), "year-end.pdf");
    await pushEvent(await lastEvent(ctx.orgId, "file.uploaded"));
    const mail = await db.outboundEmail.findMany({ where: { orgId: ctx.orgId, template: "partner-pushed" } });
    expect(mail.map((m) => [m.to, m.subject])).toEqual([[guest.email, "year-end.pdf was sent to Sandbox Accounting Ltd"]]);
    expect(mail[0]?.text).toContain(file.id);
  });

  it("the system viewer sees the same statuses (the job's view)", async () => {
    const ctx = await connectedOrg();
    expect(await listPartnerPushStatuses({ viewer: systemViewer(ctx.orgId), portalId: ctx.portalId })).toEqual({});
  });
});
