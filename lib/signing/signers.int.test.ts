import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { createTask } from "@/lib/tasks/create-task";
import { getSigners } from "@/lib/tasks/signers";
import { updateTask } from "@/lib/tasks/update-task";
import { taskCreatedNotices } from "@/lib/notifications/task-created";
import { createTestGuest, createTestUser } from "@/lib/test-support/fixtures";
import { createMemberContext, outcomeOf } from "@/lib/test-support/outcome";
import { objectBytes, removeObjectsAfterEach } from "@/lib/test-support/storage";
import { createSelfSignedP12 } from "./certificate";
import { getDocumentToSign, signDocument } from "./sign-document";
import { storePortalPdf } from "./test-support/portal-pdf";
import { checkPdfSignature, checkTimeStamp, poppler, signedRevisions } from "./test-support/verify-signature";
import { startTestTsa, type TestTsa } from "./test-support/tsa-server";

// Several signers on one document against PostgreSQL, the S3 server and a local RFC 3161
// authority on loopback: every signature and every earlier revision is checked independently
// (node-forge, poppler's pdfsig), not trusted.

const cleanUp = removeObjectsAfterEach();
const PASSWORD = "test-p12-password";
const NAMES = ["PDF_SIGNING_P12", "PDF_SIGNING_P12_PASSWORD", "PDF_SIGNING_TSA_URL"] as const;
const saved = Object.fromEntries(NAMES.map((n) => [n, process.env[n]]));
let tsa: TestTsa;

beforeAll(async () => {
  tsa = await startTestTsa();
  process.env["PDF_SIGNING_P12"] = `base64:${createSelfSignedP12({ commonName: "Signing Test Firm", password: PASSWORD }).toString("base64")}`;
  process.env["PDF_SIGNING_P12_PASSWORD"] = PASSWORD;
  resetEnvForTests();
});
afterAll(async () => {
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  resetEnvForTests();
  await tsa.close();
});

function withTsa(url: string | undefined) {
  if (url) process.env["PDF_SIGNING_TSA_URL"] = url;
  else delete process.env["PDF_SIGNING_TSA_URL"];
  resetEnvForTests();
}

async function originalPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage().drawText("Shareholders' agreement", { x: 60, y: 760, size: 14, font });
  return Buffer.from(await doc.save());
}

/** A portal with two guests and a second member, a PDF, and a Sign Document task naming guest 1, the member, guest 2. */
async function setup(order: "sequential" | "parallel") {
  const ctx = await createMemberContext({ name: "Mia Member" });
  cleanUp(ctx.org.id);
  const guestA = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id, name: "Gina First", email: `gina-${crypto.randomUUID()}@client.example` });
  const guestB = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id, name: "Gus Third", email: `gus-${crypto.randomUUID()}@client.example` });
  const partner = await createTestUser({ orgId: ctx.org.id, role: "member", name: "Pat Partner" });
  const bytes = await originalPdf();
  const original = await storePortalPdf({ orgId: ctx.org.id, portalId: ctx.portal.id, uploadedById: ctx.member.id, name: "Agreement.pdf", bytes: bytes });
  const { taskId } = await createTask({
    viewer: ctx.viewer,
    portalId: ctx.portal.id,
    title: "Sign the agreement",
    action_type: "Sign Document",
    document_file_id: original.id,
    signers: [guestA.id, partner.id, guestB.id],
    signing_order: order,
  });
  const [a, p, b] = await Promise.all([getUserViewer(guestA.id, ctx.org.id), getUserViewer(partner.id, ctx.org.id), getUserViewer(guestB.id, ctx.org.id)]);
  return { ...ctx, taskId, original, guestA, guestB, partner, viewers: { a, p, b } };
}

const request = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 Test" };
const sign = (viewer: Awaited<ReturnType<typeof getUserViewer>>, taskId: string, name: string) =>
  signDocument({ viewer, taskId, signature: { kind: "typed", name }, consent: true, ...request });

describe("several signers", () => {
  it("in order: guest, member, guest; out of turn refused; three valid time-stamped signatures over the final file and every revision; one file.signed", async () => {
    withTsa(tsa.url);
    const s = await setup("sequential");
    const before = tsa.requests;
    // Only the first signer is asked when the task is created.
    expect((await taskCreatedNotices({ orgId: s.org.id, portalId: s.portal.id, taskId: s.taskId })).map((n) => n.userId)).toEqual([s.guestA.id]);

    const notYet = "forbidden: It is not your turn to sign yet: Gina First signs first. You get an email when it is your turn.";
    expect(await outcomeOf(sign(s.viewers.p, s.taskId, "Pat Partner"))).toBe(notYet);
    expect(await outcomeOf(sign(s.viewers.b, s.taskId, "Gus Third"))).toBe(notYet);
    expect(await outcomeOf(getDocumentToSign({ viewer: s.viewers.b, taskId: s.taskId }))).toBe(notYet);
    // The creator is a member but not a signer.
    expect(await outcomeOf(sign(s.viewer, s.taskId, "Mia Member"))).toBe("forbidden: You are not one of the signers of this document");

    const first = await sign(s.viewers.a, s.taskId, "Gina First");
    expect(await outcomeOf(sign(s.viewers.a, s.taskId, "Gina First"))).toBe("conflict: You have signed this document; the other signers are asked in turn");
    expect(await outcomeOf(sign(s.viewers.b, s.taskId, "Gus Third"))).toBe(
      "forbidden: It is not your turn to sign yet: Pat Partner signs first. You get an email when it is your turn.",
    );
    expect(await db.task.findUniqueOrThrow({ where: { id: s.taskId } })).toMatchObject({ status: "Open", signedFileId: first.id });
    expect(first).toMatchObject({ signed: false, signedAt: null, name: "Agreement (signed).pdf" });
    // The member is told it is their turn.
    const turnEmails = async () =>
      (await db.outboundEmail.findMany({ where: { orgId: s.org.id, template: "turn-to-sign" }, orderBy: { createdAt: "asc" } })).map((e) => e.to);
    expect(await turnEmails()).toEqual([s.partner.email]);
    // The next signer reads the copy with the first signature.
    const doc = await getDocumentToSign({ viewer: s.viewers.p, taskId: s.taskId });
    expect(doc).toMatchObject({ fileId: first.id, signers: { total: 3, signed: 1 } });

    const second = await sign(s.viewers.p, s.taskId, "Pat Partner");
    expect(second.id).toBe(first.id);
    expect(await turnEmails()).toEqual([s.partner.email, s.guestB.email]);
    expect(await db.event.count({ where: { orgId: s.org.id, type: "file.signed" } })).toBe(0);
    const third = await sign(s.viewers.b, s.taskId, "Gus Third");
    expect(third).toMatchObject({ id: first.id, signed: true });

    const bytes = await objectBytes(third.storageKey!);
    expect(third.size).toBe(bytes.length);
    // The replaced revisions' own objects are gone: the final file holds them.
    expect(await outcomeOf(objectBytes(first.storageKey!))).not.toBe("ok");
    const pdfsig = await poppler("pdfsig", bytes);
    expect(pdfsig.match(/Signature is Valid/g)).toHaveLength(3);
    expect(pdfsig).toContain("Total document signed");
    const revisions = signedRevisions(bytes);
    expect(revisions).toHaveLength(3);
    expect(revisions[2]!.length).toBe(bytes.length);
    for (const [i, revision] of revisions.entries()) {
      const check = checkPdfSignature(revision);
      expect(check, `signature ${i + 1}`).toMatchObject({ coversWholeFile: true, digestMatches: true, signatureValid: true, subFilter: "ETSI.CAdES.detached" });
      expect((await poppler("pdfsig", revision)).match(/Signature is Valid/g), `revision ${i + 1}`).toHaveLength(i + 1);
      const stamp = checkTimeStamp(revision, tsa.certificate);
      expect(stamp, `time-stamp ${i + 1}`).toMatchObject({ imprintMatches: true, tokenValid: true });
      expect(Math.abs(stamp!.genTime.getTime() - Date.now())).toBeLessThan(120_000);
    }
    expect(tsa.requests - before).toBe(3);
    // Original pages, the signature and certificate pages of signer 1, one page each for signers 2 and 3.
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(5);
    const last = await poppler("pdftotext", bytes, ["-f", "5", "-l", "5", "-raw"]);
    for (const text of ["Signature 3 of 3", "Gus Third", s.guestB.email, "Gina First", "Pat Partner"]) expect(last).toContain(text);

    const events = await db.event.findMany({ where: { orgId: s.org.id, type: { in: ["file.signed", "task.completed"] } } });
    expect(events.filter((e) => e.type === "file.signed")).toHaveLength(1);
    expect(events.find((e) => e.type === "file.signed")!.data).toMatchObject({ file_id: third.id, signed_by_email: s.guestB.email, task_id: s.taskId });
    expect(events.filter((e) => e.type === "task.completed")).toHaveLength(1);
    expect(await db.task.findUniqueOrThrow({ where: { id: s.taskId } })).toMatchObject({ status: "Done", completedById: s.guestB.id });
    const states = await getSigners({ viewer: s.viewer, portalId: s.portal.id, taskId: s.taskId });
    expect(states.signers.map((x) => [x.email, x.type, x.status])).toEqual([
      [s.guestA.email, "guest", "signed"],
      [s.partner.email, "member", "signed"],
      [s.guestB.email, "guest", "signed"],
    ]);
    expect(await outcomeOf(sign(s.viewers.b, s.taskId, "Gus Third"))).toBe("conflict: This document is already signed");
  });

  it("in parallel: any order, two at the same moment, completes after the last only", async () => {
    withTsa(undefined);
    const s = await setup("parallel");
    expect(new Set((await taskCreatedNotices({ orgId: s.org.id, portalId: s.portal.id, taskId: s.taskId })).map((n) => n.userId))).toEqual(
      new Set([s.guestA.id, s.guestB.id]),
    );
    const initial = await getSigners({ viewer: s.viewer, portalId: s.portal.id, taskId: s.taskId });
    expect(initial.signers.map((x) => x.status)).toEqual(["to_sign", "to_sign", "to_sign"]);
    await sign(s.viewers.b, s.taskId, "Gus Third");
    expect(await db.task.findUniqueOrThrow({ where: { id: s.taskId } })).toMatchObject({ status: "Open" });
    expect(await db.event.count({ where: { orgId: s.org.id, type: "file.signed" } })).toBe(0);
    const states = await getSigners({ viewer: s.viewer, portalId: s.portal.id, taskId: s.taskId });
    expect(states.signers.map((x) => x.status)).toEqual(["to_sign", "to_sign", "signed"]);
    // The two others at the same moment: the one whose copy went stale signs again on the new copy.
    const [, last] = await Promise.all([sign(s.viewers.p, s.taskId, "Pat Partner"), sign(s.viewers.a, s.taskId, "Gina First")]);
    expect(await db.task.findUniqueOrThrow({ where: { id: s.taskId } })).toMatchObject({ status: "Done" });
    expect(await db.event.count({ where: { orgId: s.org.id, type: "file.signed" } })).toBe(1);
    expect(await db.outboundEmail.count({ where: { orgId: s.org.id, template: "turn-to-sign" } })).toBe(0);
    const copy = await db.fileEntry.findUniqueOrThrow({ where: { id: last.id } });
    expect(copy).toMatchObject({ signed: true });
    const bytes = await objectBytes(copy.storageKey!);
    expect((await poppler("pdfsig", bytes)).match(/Signature is Valid/g)).toHaveLength(3);
    expect(signedRevisions(bytes)).toHaveLength(3);
    // Each signature numbered once: the later of the two was made on the copy with the earlier.
    const numbered = await db.auditLog.findMany({ where: { orgId: s.org.id, action: "task.signer_signed" } });
    expect(numbered.map((r) => (r.metadata as { signature: number }).signature).sort()).toEqual([1, 2, 3]);
    for (const revision of signedRevisions(bytes)) {
      expect(checkPdfSignature(revision)).toMatchObject({ digestMatches: true, signatureValid: true });
      // Without an authority: PAdES B-B, no time-stamp.
      expect(checkTimeStamp(revision, tsa.certificate)).toBeNull();
    }
  });

  it("signers are guests of the portal or members; they cannot change once someone signed; another type refuses them", async () => {
    withTsa(undefined);
    const s = await setup("sequential");
    const other = await createMemberContext();
    expect(await outcomeOf(updateTask({ viewer: s.viewer, taskId: s.taskId, signers: [s.guestA.id, other.member.id] }))).toBe(
      `invalid_request: signers.1: ${other.member.id} is not a guest of this portal or a member of this organization`,
    );
    expect(await outcomeOf(updateTask({ viewer: s.viewer, taskId: s.taskId, signers: [s.guestA.id, s.guestA.id] }))).toBe(
      `invalid_request: signers.1: ${s.guestA.id} is named twice`,
    );
    expect(
      await outcomeOf(createTask({ viewer: s.viewer, portalId: s.portal.id, title: "Question", action_type: "Question?", signers: [s.guestA.id] } as never)),
    ).toBe("invalid_request: signers: Only a Sign Document task has signers");
    // Reordered before anyone signs: Gus first now.
    await updateTask({ viewer: s.viewer, taskId: s.taskId, signers: [s.guestB.id, s.guestA.id] });
    expect(await outcomeOf(sign(s.viewers.a, s.taskId, "Gina First"))).toBe(
      "forbidden: It is not your turn to sign yet: Gus Third signs first. You get an email when it is your turn.",
    );
    await sign(s.viewers.b, s.taskId, "Gus Third");
    expect(await outcomeOf(updateTask({ viewer: s.viewer, taskId: s.taskId, signing_order: "parallel" }))).toBe(
      "conflict: Signing has started: the signers can no longer change; ask again with a new task",
    );
    // A foreign organization's viewer does not see the signers.
    expect(await outcomeOf(getSigners({ viewer: other.viewer, portalId: s.portal.id, taskId: s.taskId }))).toBe("not_found: Task not found");
    const audit = await db.auditLog.findMany({
      where: { orgId: s.org.id, action: { in: ["task.signers_set", "task.signer_signed"] } },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((r) => r.action)).toEqual(["task.signers_set", "task.signers_set", "task.signer_signed"]);
  });
});
