import { createHash } from "node:crypto";

import { PDFDocument } from "pdf-lib";
import { describe, expect, it } from "vitest";

import { createSelfSignedP12 } from "./certificate";
import { signPdf } from "./sign-pdf";
import { poppler } from "./test-support/verify-signature";

const A4: [number, number] = [595.28, 841.89];

/**
 * An A4 original whose SHA-256 is as wide as a hex digest gets in Helvetica (no narrow "f", at most
 * three "c"): at 10 pt wider than the page's value column.
 */
async function originalWithWideDigest(): Promise<{ original: Buffer; sha256: string }> {
  for (let i = 0; i < 100_000; i++) {
    const doc = await PDFDocument.create();
    doc.addPage(A4);
    doc.setTitle(`Engagement letter ${i}`);
    const original = Buffer.from(await doc.save());
    const sha256 = createHash("sha256").update(original).digest("hex");
    if (!sha256.includes("f") && [...sha256].filter((c) => c === "c").length <= 3) return { original, sha256 };
  }
  throw new Error("no original with a wide digest");
}

describe("signPdf's certificate page", () => {
  it("shows the original's SHA-256 whole, on one line, however wide its characters", async () => {
    const { original, sha256 } = await originalWithWideDigest();
    const password = "test-password";
    const signed = await signPdf({
      original,
      appearance: { kind: "typed", name: "Gina Guest" },
      placement: { signaturePage: true },
      record: {
        signerName: "Gina Guest",
        signerEmail: "gina@client.example",
        signedAt: new Date("2026-11-29T10:00:00Z"),
        ip: "203.0.113.7",
        userAgent: "Mozilla/5.0 (iPhone) Test",
        taskTitle: "Sign the engagement letter",
        taskId: "task-1",
        portalName: "Portal",
        portalId: "portal-1",
        organizationName: "Firm",
        documentName: "Engagement letter.pdf",
      },
      identity: { p12: createSelfSignedP12({ commonName: "Firm", password }), password },
    });
    expect(signed.originalSha256).toBe(sha256);
    const page = await poppler("pdftotext", signed.bytes, ["-f", String(signed.certificatePage), "-l", String(signed.certificatePage), "-raw"]);
    expect(page.split("\n")).toContain(`Original SHA-256 ${sha256}`);
  });
});
