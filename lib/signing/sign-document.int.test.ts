import { PutObjectCommand } from "@aws-sdk/client-s3";
import forge from "node-forge";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { bucket, s3 } from "@/lib/storage/s3";
import { createTask } from "@/lib/tasks/create-task";
import { setSignDocument } from "@/lib/tasks/sign-document-task";
import { createTestGuest } from "@/lib/test-support/fixtures";
import { createMemberContext, outcomeOf } from "@/lib/test-support/outcome";
import { objectBytes, removeObjectsAfterEach } from "@/lib/test-support/storage";
import { createSelfSignedP12, loadIdentity } from "./certificate";
import { getDocumentToSign, signDocument } from "./sign-document";
import { getSignatureRecord } from "./signature-record";
import { storePortalPdf } from "./test-support/portal-pdf";
import { checkPdfSignature, OID, poppler } from "./test-support/verify-signature";

// Signing a Sign Document task end to end against PostgreSQL and the S3 server: the signed copy is
// parsed independently (node-forge, poppler's pdfsig/pdftotext/pdfimages), not trusted.

const cleanUp = removeObjectsAfterEach();
const PASSWORD = "test-p12-password";
let p12: Buffer;
const saved = { p12: process.env["PDF_SIGNING_P12"], password: process.env["PDF_SIGNING_P12_PASSWORD"] };

beforeAll(() => {
  // The test's own organization certificate, configured as a deployment would (base64 form).
  p12 = createSelfSignedP12({ commonName: "Signing Test Firm", password: PASSWORD });
  process.env["PDF_SIGNING_P12"] = `base64:${p12.toString("base64")}`;
  process.env["PDF_SIGNING_P12_PASSWORD"] = PASSWORD;
  resetEnvForTests();
});
afterAll(() => {
  for (const [name, value] of [
    ["PDF_SIGNING_P12", saved.p12],
    ["PDF_SIGNING_P12_PASSWORD", saved.password],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetEnvForTests();
});

/** A tiny 1x1 PNG, as a canvas would give it. */
const PNG_DATA_URL = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

async function originalPdf(pages = 2): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage().drawText(`Engagement letter page ${i}`, { x: 60, y: 760, size: 14, font });
  return Buffer.from(await doc.save());
}

async function setup({ placement = { signaturePage: true } as const, permissions = {} as object } = {}) {
  const ctx = await createMemberContext({ name: "Mia Member" });
  cleanUp(ctx.org.id);
  const guestUser = await createTestGuest({
    orgId: ctx.org.id,
    portalId: ctx.portal.id,
    name: "Gina Guest",
    email: `gina-${crypto.randomUUID()}@client.example`,
  });
  await db.portalGuest.updateMany({ where: { userId: guestUser.id }, data: { permissions } });
  const guest = await getUserViewer(guestUser.id, ctx.org.id);
  const bytes = await originalPdf();
  const original = await storePortalPdf({
    orgId: ctx.org.id,
    portalId: ctx.portal.id,
    uploadedById: ctx.member.id,
    name: "Engagement letter.pdf",
    bytes: bytes,
  });
  const { taskId } = await createTask({ viewer: ctx.viewer, portalId: ctx.portal.id, title: "Sign the engagement letter", action_type: "Sign Document" });
  await setSignDocument({ viewer: ctx.viewer, taskId, fileId: original.id, placement });
  return { ...ctx, guestUser, guest, original, originalBytes: bytes, taskId };
}

const request = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (iPhone) Test" };

describe("signDocument", () => {
  it("signs with a PAdES signature over the whole file that verifies, by the configured certificate, with the signature page and the certificate page", async () => {
    const s = await setup();
    const signed = await signDocument({ viewer: s.guest, taskId: s.taskId, signature: { kind: "typed", name: "Gina Guest" }, consent: true, ...request });
    const bytes = await objectBytes(signed.storageKey!);
    expect(signed).toMatchObject({
      name: "Engagement letter (signed).pdf",
      contentType: "application/pdf",
      size: bytes.length,
      signed: true,
      taskId: s.taskId,
      status: "registered",
    });

    const check = checkPdfSignature(bytes);
    expect(check.subFilter).toBe("ETSI.CAdES.detached");
    expect(check.coversWholeFile).toBe(true);
    expect(check.digestMatches).toBe(true);
    expect(check.signatureValid).toBe(true);
    // PAdES B-B signed attributes: content-type, message-digest, signing-certificate-v2; no signing-time.
    expect(check.attributeOids.sort()).toEqual([OID.contentType, OID.messageDigest, OID.signingCertificateV2].sort());
    expect(check.signingCertificateMatches).toBe(true);
    // The chain in the CMS is the configured certificate.
    const configured = loadIdentity({ p12, password: PASSWORD }).chain.map((c) =>
      forge.util.bytesToHex(forge.asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes()),
    );
    expect(check.certificates).toEqual(configured);
    expect(check.signerCertificate.subject.getField("CN").value).toBe("Signing Test Firm");

    // The original's 2 pages, the signature page, the certificate page.
    const doc = await PDFDocument.load(bytes);
    expect(doc.getPageCount()).toBe(4);
    const signaturePage = await poppler("pdftotext", bytes, ["-f", "3", "-l", "3"]);
    expect(signaturePage).toContain("Signature");
    expect(signaturePage).toContain("Gina Guest");
    const certificatePage = await poppler("pdftotext", bytes, ["-f", "4", "-l", "4", "-raw"]);
    const originalSha = (await import("node:crypto")).createHash("sha256").update(s.originalBytes).digest("hex");
    for (const text of [
      "Signing certificate",
      "Gina Guest",
      s.guestUser.email,
      "203.0.113.7",
      "Mozilla/5.0 (iPhone) Test",
      originalSha,
      s.taskId,
      s.portal.id,
      "Sign the engagement letter",
    ])
      expect(certificatePage).toContain(text);

    const pdfsig = await poppler("pdfsig", bytes);
    expect(pdfsig).toContain("Signature is Valid");
    expect(pdfsig).toContain("Total document signed");
    expect(pdfsig).toMatch(/Certificate Validation: (Certificate issuer is unknown|Certificate is not trusted|.*[Ss]elf.signed)/);

    // The original stays as it was.
    expect(await objectBytes(s.original.storageKey!)).toEqual(s.originalBytes);
    expect(await db.fileEntry.findUniqueOrThrow({ where: { id: s.original.id } })).toMatchObject({ deletedAt: null, signed: false });
  });

  it("the firm reads who signed, when, from where, the signed copy with its certificate page and the original", async () => {
    const s = await setup();
    expect(await getSignatureRecord({ viewer: s.viewer, portalId: s.portal.id, taskId: s.taskId })).toBeNull();
    const signed = await signDocument({ viewer: s.guest, taskId: s.taskId, signature: { kind: "typed", name: "Gina Guest" }, consent: true, ...request });
    const record = await getSignatureRecord({ viewer: s.viewer, portalId: s.portal.id, taskId: s.taskId });
    expect(record).toMatchObject({
      signerName: "Gina Guest",
      signerEmail: s.guestUser.email,
      ip: "203.0.113.7",
      userAgent: "Mozilla/5.0 (iPhone) Test",
      method: "typed",
      signedFile: { id: signed.id, name: "Engagement letter (signed).pdf" },
      original: { id: s.original.id, name: "Engagement letter.pdf" },
    });
    expect(record!.signedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The certificate page is the signed copy's last page.
    const pages = (await PDFDocument.load(await objectBytes(signed.storageKey!))).getPageCount();
    expect(record!.certificatePage).toBe(pages);
    // Another portal's task id is not found; a foreign organization's viewer neither.
    expect(await outcomeOf(getSignatureRecord({ viewer: s.viewer, portalId: s.portal.id, taskId: crypto.randomUUID() }))).toBe("not_found: Task not found");
  });

  it("any byte changed afterwards makes verification fail", async () => {
    const s = await setup();
    const signed = await signDocument({ viewer: s.guest, taskId: s.taskId, signature: { kind: "typed", name: "Gina Guest" }, consent: true, ...request });
    const bytes = await objectBytes(signed.storageKey!);
    const [a, b, c, d] = checkPdfSignature(bytes).byteRange;
    // A byte in the first signed range, one in the second, and one of the RSA signature's (the
    // end of the CMS, before the zero padding of /Contents).
    const contents = bytes.subarray(a + b + 1, c - 1).toString("latin1");
    const signatureByte = a + b + 1 + contents.replace(/0+$/, "").length - 20;
    for (const offset of [a + Math.floor(b / 2), c + Math.floor(d / 2), signatureByte]) {
      const tampered = Buffer.from(bytes);
      tampered[offset] = tampered[offset]! ^ 0x01;
      let ok: boolean;
      try {
        const check = checkPdfSignature(tampered);
        ok = check.digestMatches && check.signatureValid;
      } catch {
        ok = false;
      }
      expect(ok, `byte ${offset} changed`).toBe(false);
      expect(await poppler("pdfsig", tampered)).not.toContain("Signature is Valid");
    }
  });

  it("stamps a drawn signature at the member's placement; file.signed carries the D21 fields; the task completes; every step is audited", async () => {
    const s = await setup({ placement: { page: 2, x: 0.55, y: 0.75, width: 0.35, height: 0.1 } as never });
    const signed = await signDocument({ viewer: s.guest, taskId: s.taskId, signature: { kind: "drawn", dataUrl: PNG_DATA_URL }, consent: true, ...request });
    const bytes = await objectBytes(signed.storageKey!);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(3);
    // The drawing is an image on page 2, where the member placed it.
    const images = await poppler("pdfimages", bytes, ["-list"]);
    expect(images.split("\n").filter((l) => /^\s*2\s+\d+\s+image/.test(l))).toHaveLength(1);
    expect(checkPdfSignature(bytes).signatureValid).toBe(true);

    const task = await db.task.findUniqueOrThrow({ where: { id: s.taskId } });
    expect(task).toMatchObject({ status: "Done", completedById: s.guestUser.id });
    const events = await db.event.findMany({ where: { orgId: s.org.id, type: { in: ["file.signed", "task.completed"] } }, orderBy: { createdAt: "asc" } });
    const fileSigned = events.find((e) => e.type === "file.signed")!;
    expect(fileSigned.data).toEqual({
      file_id: signed.id,
      name: "Engagement letter (signed).pdf",
      task_id: s.taskId,
      signed_by_email: s.guestUser.email,
      signed_by_name: "Gina Guest",
      signed_at: signed.signedAt!.toISOString(),
    });
    expect(events.filter((e) => e.type === "task.completed")).toHaveLength(1);
    expect(events.find((e) => e.type === "task.completed")!.data).toMatchObject({
      task_id: s.taskId,
      action_type: "Sign Document",
      attached_files: [{ file_id: signed.id, name: signed.name }],
    });
    const audit = await db.auditLog.findMany({ where: { orgId: s.org.id, actorUserId: s.guestUser.id }, orderBy: { createdAt: "asc" } });
    expect(audit.map((r) => r.action)).toEqual(["task.signature_consented", "file.signed", "task.completed"]);
    expect(audit[0]!.metadata).toMatchObject({ ip: "203.0.113.7", method: "drawn", document_file_id: s.original.id });
  });

  it("refuses without consent, without a signature, twice, for another guest, and for a guest of another portal; nothing is stored", async () => {
    const s = await setup();
    const typed = { kind: "typed", name: "Gina Guest" } as const;
    expect(await outcomeOf(signDocument({ viewer: s.guest, taskId: s.taskId, signature: typed, consent: false, ...request }))).toBe(
      "invalid_request: consent: Consent to sign electronically is required",
    );
    expect(
      await outcomeOf(
        signDocument({ viewer: s.guest, taskId: s.taskId, signature: { kind: "drawn", dataUrl: "data:image/png;base64," }, consent: true, ...request }),
      ),
    ).toBe("invalid_request: signature: Draw your signature in the box first");
    expect(
      await outcomeOf(
        signDocument({
          viewer: s.guest,
          taskId: s.taskId,
          signature: { kind: "drawn", dataUrl: `data:image/png;base64,${Buffer.from("GIF89a....").toString("base64")}` },
          consent: true,
          ...request,
        }),
      ),
    ).toBe("invalid_request: signature: Draw your signature in the box first");
    const other = await createMemberContext();
    const stranger = await createTestGuest({ orgId: s.org.id, portalId: (await db.portal.create({ data: { orgId: s.org.id, name: "Other portal" } })).id });
    const strangerViewer = await getUserViewer(stranger.id, s.org.id);
    expect(await outcomeOf(signDocument({ viewer: strangerViewer, taskId: s.taskId, signature: typed, consent: true, ...request }))).toBe(
      "not_found: Task not found",
    );
    expect(await outcomeOf(getDocumentToSign({ viewer: strangerViewer, taskId: s.taskId }))).toBe("not_found: Task not found");
    expect(await outcomeOf(signDocument({ viewer: other.viewer, taskId: s.taskId, signature: typed, consent: true, ...request }))).toBe(
      "not_found: Task not found",
    );
    // Assigned to someone else.
    const colleague = await createTestGuest({ orgId: s.org.id, portalId: s.portal.id });
    await db.taskAssignee.create({ data: { taskId: s.taskId, userId: colleague.id, type: "guest", email: colleague.email } });
    expect(await outcomeOf(signDocument({ viewer: s.guest, taskId: s.taskId, signature: typed, consent: true, ...request }))).toBe(
      "forbidden: This task is assigned to someone else",
    );
    expect(await db.fileEntry.count({ where: { portalId: s.portal.id } })).toBe(1);

    const colleagueViewer = await getUserViewer(colleague.id, s.org.id);
    await signDocument({ viewer: colleagueViewer, taskId: s.taskId, signature: typed, consent: true, ...request });
    expect(await outcomeOf(signDocument({ viewer: colleagueViewer, taskId: s.taskId, signature: typed, consent: true, ...request }))).toBe(
      "conflict: This document is already signed",
    );
    expect(await db.fileEntry.count({ where: { portalId: s.portal.id } })).toBe(2);
    expect(await db.event.count({ where: { orgId: s.org.id, type: "file.signed" } })).toBe(1);
  });

  it("a guest without download permission can still read the document they are asked to sign (inline, 5 minutes)", async () => {
    const s = await setup({ permissions: { download: false } });
    const doc = await getDocumentToSign({ viewer: s.guest, taskId: s.taskId });
    expect(doc.name).toBe("Engagement letter.pdf");
    const res = await fetch(doc.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await res.arrayBuffer())).toEqual(s.originalBytes);
    expect(new URL(doc.url).searchParams.get("X-Amz-Expires")).toBe("300");
  });

  it("an unreadable original is a clear error and stores nothing", async () => {
    const s = await setup();
    await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: s.original.storageKey!, Body: "not a pdf at all", ContentType: "application/pdf" }));
    expect(
      await outcomeOf(signDocument({ viewer: s.guest, taskId: s.taskId, signature: { kind: "typed", name: "Gina Guest" }, consent: true, ...request })),
    ).toBe("invalid_request: document: The document is not a readable PDF");
    expect(await db.task.findUniqueOrThrow({ where: { id: s.taskId } })).toMatchObject({ status: "Open" });
    expect(await db.fileEntry.count({ where: { portalId: s.portal.id } })).toBe(1);
  });
});
