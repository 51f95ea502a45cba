import { createHash } from "node:crypto";
import { pdflibAddPlaceholder } from "@signpdf/placeholder-pdf-lib";
import { SignPdf } from "@signpdf/signpdf";
import { SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFString, rgb, StandardFonts, type PDFFont, type PDFImage, type PDFPage } from "pdf-lib";
import { invalidRequest } from "@/lib/errors";
import type { SigningIdentity } from "./certificate";
import { loadForUpdate } from "./incremental";
import { PadesSigner, type TimeStamper } from "./pades-signer";

// The signed document: the original's pages, the signature appearance stamped where the member
// placed it (or on an appended signature page), a certificate page with the signing record, then
// one PAdES signature (ETSI.CAdES.detached; B-B, or B-T with a time-stamping authority) over the
// whole final file. Each later signer of the same document adds an incremental update (signPdfIncrement):
// one page with their signature and their certificate, then their own signature over the whole
// file, so the earlier signatures keep covering exactly the revisions they signed.

export type SignatureAppearance = { kind: "typed"; name: string } | { kind: "drawn"; png: Uint8Array };

export type Placement = { signaturePage: true } | { page: number; x: number; y: number; width: number; height: number };

export interface SigningRecord {
  signerName: string;
  signerEmail: string;
  signedAt: Date;
  ip: string;
  userAgent: string;
  taskTitle: string;
  taskId: string;
  portalName: string;
  portalId: string;
  organizationName: string;
  documentName: string;
  /** With several signers: this signature's place (1-based) among them, and the signatures before it. */
  sequence?: { index: number; total: number; earlier: { name: string; email: string; signedAt: Date }[] };
}

export interface SignedPdf {
  bytes: Buffer;
  /** SHA-256 (hex) of the original file. */
  originalSha256: string;
  /** Where the appearance went: 1-based page number of the final document. */
  stampedPage: number;
  /** 1-based page number of the certificate page (the last). */
  certificatePage: number;
}

/** Room for the CMS, in hex digits (certificate chain of a few certificates and RSA-4096 signatures fit). */
const SIGNATURE_LENGTH = 16_384;
/** With a time-stamp token: the authority's certificates and signature come on top. */
const TIME_STAMPED_SIGNATURE_LENGTH = 49_152;
const INK = rgb(0.05, 0.1, 0.35);
const TEXT = rgb(0.1, 0.1, 0.1);
const MUTED = rgb(0.4, 0.4, 0.4);

/** What a standard (WinAnsi) font can draw: characters it cannot encode become "?". */
function drawable(font: PDFFont, text: string): string {
  let out = "";
  for (const ch of text.normalize("NFC")) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += "?";
    }
  }
  return out;
}

/** ASCII for the signature dictionary's strings (pdf-lib writes them as literal strings). */
const ascii = (text: string) => text.normalize("NFKD").replace(/[^\x20-\x7e]/g, "");

function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Draws the signature appearance inside the box (PDF units, origin bottom left), scaled to fit. */
function drawAppearance(
  page: PDFPage,
  box: { x: number; y: number; width: number; height: number },
  appearance: SignatureAppearance,
  fonts: Fonts,
  image: PDFImage | null,
) {
  if (appearance.kind === "drawn" && image) {
    const scale = Math.min(box.width / image.width, box.height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    page.drawImage(image, { x: box.x + (box.width - w) / 2, y: box.y + (box.height - h) / 2, width: w, height: h });
    return;
  }
  const name = appearance.kind === "typed" ? drawable(fonts.script, appearance.name) : "";
  const size = Math.max(6, Math.min(box.height * 0.7, (box.width / Math.max(1, fonts.script.widthOfTextAtSize(name, 1))) * 0.95));
  page.drawText(name, {
    x: box.x + (box.width - fonts.script.widthOfTextAtSize(name, size)) / 2,
    y: box.y + (box.height - size * 0.7) / 2,
    size,
    font: fonts.script,
    color: INK,
  });
}

async function embedFonts(doc: PDFDocument): Promise<Fonts> {
  return {
    regular: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    script: await doc.embedFont(StandardFonts.TimesRomanBoldItalic),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
}

async function embedAppearance(doc: PDFDocument, appearance: SignatureAppearance): Promise<PDFImage | null> {
  if (appearance.kind !== "drawn") return null;
  try {
    return await doc.embedPng(appearance.png);
  } catch {
    throw invalidRequest("signature: The drawn signature is not a PNG image; draw it again");
  }
}

const signedLineOf = (record: SigningRecord) =>
  `${record.signerName} <${record.signerEmail}> - ${record.signedAt
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, " UTC")}`;

/** A signature block: the document line, the appearance in a box, a line under it and who signed when. Returns the y below it. */
function drawSignatureBlock(page: PDFPage, top: number, record: SigningRecord, appearance: SignatureAppearance, fonts: Fonts, image: PDFImage | null): number {
  const margin = 56;
  const pageWidth = page.getWidth();
  let y = top;
  for (const line of wrap(fonts.regular, 11, drawable(fonts.regular, `${record.documentName} (${record.taskTitle})`), pageWidth - 2 * margin)) {
    page.drawText(line, { x: margin, y, size: 11, font: fonts.regular, color: MUTED });
    y -= 15;
  }
  const box = { x: margin, y: y - 140, width: Math.min(320, pageWidth - 2 * margin), height: 110 };
  drawAppearance(page, box, appearance, fonts, image);
  page.drawLine({ start: { x: box.x, y: box.y - 6 }, end: { x: box.x + box.width, y: box.y - 6 }, thickness: 0.8, color: MUTED });
  page.drawText(drawable(fonts.regular, signedLineOf(record)), { x: margin, y: box.y - 22, size: 10, font: fonts.regular, color: TEXT });
  return box.y - 22;
}

/** The signing record's rows; `hashes` name what was signed. */
function certificateRows(record: SigningRecord, appearance: SignatureAppearance, hashes: [string, string][], placedOn: string): [string, string][] {
  const earlier = record.sequence?.earlier ?? [];
  return [
    ["Document", record.documentName],
    ...hashes,
    ["Signed by", record.signerName],
    ["Email", record.signerEmail],
    ["Signed at (UTC)", record.signedAt.toISOString()],
    ["IP address", record.ip || "unknown"],
    ["User agent", record.userAgent || "unknown"],
    ["Signature", appearance.kind === "typed" ? "Typed name" : "Drawn by hand"],
    ["Signature placed on", placedOn],
    ["Task", `${record.taskTitle} (${record.taskId})`],
    ["Portal", `${record.portalName} (${record.portalId})`],
    ["Organization", record.organizationName],
    ["Consent", "The signer agreed to sign this document electronically."],
    ...earlier.map((e, i): [string, string] => [`Signature ${i + 1}`, `${e.name} <${e.email}>, ${e.signedAt.toISOString()} (earlier certificate page)`]),
  ];
}

/** A hex digest (SHA-256 and the like) as the certificate page shows it. */
const HEX_DIGEST = /^[0-9a-f]{32,128}$/;
/** Below this size a digest is cut into lines like any other unbreakable value. */
const MIN_DIGEST_SIZE = 6;

/** The rows as label/value lines from `top` down, then the note on the signature. */
function drawRecord(page: PDFPage, fonts: Fonts, top: number, rows: [string, string][]) {
  const margin = 56;
  const pageWidth = page.getWidth();
  const labelWidth = 130;
  const valueWidth = pageWidth - 2 * margin - labelWidth;
  let y = top;
  for (const [label, value] of rows) {
    page.drawText(label, { x: margin, y, size: 10, font: fonts.bold, color: TEXT });
    // A digest is read and compared character by character: whole, on one line, in a fixed-width
    // face, at the largest size up to 10 pt that fits (64 hex characters in Helvetica at 10 pt are
    // up to 356 pt wide, more than an A4 page's 353 pt column).
    const digestSize = HEX_DIGEST.test(value) ? Math.min(10, valueWidth / fonts.mono.widthOfTextAtSize(value, 1)) : 0;
    if (digestSize >= MIN_DIGEST_SIZE) {
      page.drawText(value, { x: margin + labelWidth, y, size: digestSize, font: fonts.mono, color: TEXT });
      y -= 14;
    } else {
      for (const line of wrap(fonts.regular, 10, drawable(fonts.regular, value), valueWidth)) {
        // Other unbreakable values (a long user agent or email) are cut to the width, character by character.
        let text = line;
        while (text.length > 1 && fonts.regular.widthOfTextAtSize(text, 10) > valueWidth) {
          const cut = Math.max(1, Math.floor(text.length * (valueWidth / fonts.regular.widthOfTextAtSize(text, 10))));
          page.drawText(text.slice(0, cut), { x: margin + labelWidth, y, size: 10, font: fonts.regular, color: TEXT });
          text = text.slice(cut);
          y -= 14;
        }
        page.drawText(text, { x: margin + labelWidth, y, size: 10, font: fonts.regular, color: TEXT });
        y -= 14;
      }
    }
    y -= 6;
  }
  y -= 10;
  for (const line of wrap(
    fonts.regular,
    9,
    "This document carries a digital signature (PAdES) by the organization's signing certificate over the whole file, this page included: a PDF reader shows any later change.",
    pageWidth - 2 * margin,
  )) {
    page.drawText(line, { x: margin, y, size: 9, font: fonts.regular, color: MUTED });
    y -= 12;
  }
}

/** The signature field (`Signature<n>`, unique per signature) and its dictionary with a zeroed /Contents, on `page`. */
function addPlaceholder(doc: PDFDocument, page: PDFPage, record: SigningRecord, timeStamp: TimeStamper | null, n: number) {
  pdflibAddPlaceholder({
    pdfDoc: doc,
    pdfPage: page,
    reason: ascii(`Signed by ${record.signerName} <${record.signerEmail}>`),
    contactInfo: ascii(record.signerEmail),
    name: ascii(record.organizationName),
    location: ascii(record.ip || "unknown"),
    signingTime: record.signedAt,
    signatureLength: timeStamp ? TIME_STAMPED_SIGNATURE_LENGTH : SIGNATURE_LENGTH,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: "Client Portals",
  });
  // The placeholder names every field Signature1: the field just added gets its own name.
  const annots = page.node.lookup(PDFName.of("Annots"), PDFArray);
  const widget = doc.context.lookup(annots.get(annots.size() - 1), PDFDict);
  widget.set(PDFName.of("T"), PDFString.of(`Signature${n}`));
}

/**
 * The next signature on a document already signed by the earlier signers (`previous`, the signed
 * copy as it is): an incremental update with one page (this signer's appearance and certificate
 * of signing) and this signer's PAdES signature over the whole new file.
 */
export async function signPdfIncrement({
  previous,
  appearance,
  record,
  identity,
  timeStamp = null,
}: {
  previous: Buffer;
  appearance: SignatureAppearance;
  record: SigningRecord & { sequence: NonNullable<SigningRecord["sequence"]> };
  identity: SigningIdentity;
  timeStamp?: TimeStamper | null;
}): Promise<Omit<SignedPdf, "originalSha256"> & { previousSha256: string }> {
  const previousSha256 = createHash("sha256").update(previous).digest("hex");
  let update: Awaited<ReturnType<typeof loadForUpdate>>;
  try {
    update = await loadForUpdate(previous);
  } catch {
    throw invalidRequest("document: The signed copy is not a readable PDF; ask the firm to start the signing again");
  }
  const { doc } = update;
  const fonts = await embedFonts(doc);
  const image = await embedAppearance(doc, appearance);
  const last = doc.getPages().at(-1)!;
  const page = doc.addPage([last.getWidth(), last.getHeight()]);
  const margin = 56;
  const top = page.getHeight() - margin - 20;
  const { index, total } = record.sequence;
  page.drawText(`Signature ${index} of ${total}`, { x: margin, y: top, size: 20, font: fonts.bold, color: TEXT });
  const below = drawSignatureBlock(page, top - 28, record, appearance, fonts, image);
  page.drawText("Signing certificate", { x: margin, y: below - 36, size: 14, font: fonts.bold, color: TEXT });
  const pageNumber = doc.getPageCount();
  drawRecord(page, fonts, below - 60, certificateRows(record, appearance, [["Signed revision SHA-256", previousSha256]], `page ${pageNumber}`));
  addPlaceholder(doc, page, record, timeStamp, index);
  const bytes = await new SignPdf().sign(await update.save(), new PadesSigner(identity, timeStamp), record.signedAt);
  return { bytes, previousSha256, stampedPage: pageNumber, certificatePage: pageNumber };
}

interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  /** Standard fonts hold no script face: the typed signature uses Times Bold Italic. */
  script: PDFFont;
  /** Digests. */
  mono: PDFFont;
}

async function loadOriginal(original: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(original, { updateMetadata: false });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    if (/encrypt/i.test(message)) throw invalidRequest("document: The PDF is password-protected; ask the firm for an unprotected copy");
    throw invalidRequest("document: The document is not a readable PDF");
  }
}

/** Produces the signed PDF. Throws invalid_request for an unreadable or protected original. */
export async function signPdf({
  original,
  appearance,
  placement,
  record,
  identity,
  timeStamp = null,
}: {
  original: Uint8Array;
  appearance: SignatureAppearance;
  placement: Placement;
  record: SigningRecord;
  identity: SigningIdentity;
  /** An RFC 3161 time-stamper (PAdES B-T); null or absent: B-B. */
  timeStamp?: TimeStamper | null;
}): Promise<SignedPdf> {
  const originalSha256 = createHash("sha256").update(original).digest("hex");
  const doc = await loadOriginal(original);
  const fonts = await embedFonts(doc);
  const image = await embedAppearance(doc, appearance);
  const pages = doc.getPages();
  const last = pages.at(-1);
  const [pageWidth, pageHeight] = last ? [last.getWidth(), last.getHeight()] : [595.28, 841.89];

  let stampedPage: number;
  const target = "page" in placement && placement.page <= pages.length ? pages[placement.page - 1]! : null;
  if (target && "page" in placement) {
    const { width, height } = target.getSize();
    const box = {
      x: placement.x * width,
      y: height - (placement.y + placement.height) * height,
      width: placement.width * width,
      height: placement.height * height,
    };
    drawAppearance(target, box, appearance, fonts, image);
    stampedPage = placement.page;
  } else {
    // The default (or a placement on a page the document does not have): a signature page.
    const page = doc.addPage([pageWidth, pageHeight]);
    const top = pageHeight - 56 - 20;
    page.drawText("Signature", { x: 56, y: top, size: 20, font: fonts.bold, color: TEXT });
    drawSignatureBlock(page, top - 28, record, appearance, fonts, image);
    stampedPage = doc.getPageCount();
  }

  // The certificate page: what was signed, by whom, when and from where.
  const cert = doc.addPage([pageWidth, pageHeight]);
  const margin = 56;
  const title = record.sequence ? `Signing certificate (signature 1 of ${record.sequence.total})` : "Signing certificate";
  cert.drawText(title, { x: margin, y: pageHeight - margin - 20, size: 20, font: fonts.bold, color: TEXT });
  drawRecord(cert, fonts, pageHeight - margin - 52, certificateRows(record, appearance, [["Original SHA-256", originalSha256]], `page ${stampedPage}`));
  addPlaceholder(doc, cert, record, timeStamp, 1);
  // No object streams: the placeholder must stay findable as plain bytes.
  const unsigned = Buffer.from(await doc.save({ useObjectStreams: false }));
  const bytes = await new SignPdf().sign(unsigned, new PadesSigner(identity, timeStamp), record.signedAt);
  return { bytes, originalSha256, stampedPage, certificatePage: doc.getPageCount() };
}
