import { createHash } from "node:crypto";
import { PDFDocument, type PDFObject, type PDFRef } from "pdf-lib";

// An incremental update (ISO 32000-1 7.5.6) written with pdf-lib, which itself only rewrites
// whole files: the document is loaded, every indirect object's serialization is fingerprinted,
// the caller changes the document, and only the objects that are new or serialize differently
// are appended after the previous bytes, with their own cross-reference section and a trailer
// whose /Prev points at the previous one. The earlier bytes stay untouched, so every earlier
// signature's /ByteRange still covers exactly the revision it signed.

const fingerprint = (object: PDFObject): string => createHash("sha256").update(serialize(object)).digest("base64");

function serialize(object: PDFObject): Uint8Array {
  const bytes = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}

export interface IncrementalDocument {
  doc: PDFDocument;
  /** The previous bytes plus the objects changed since load, as a new revision. */
  save(): Promise<Buffer>;
}

/** Loads `previous` for an incremental update (no object streams in the appended part). */
export async function loadForUpdate(previous: Buffer): Promise<IncrementalDocument> {
  const doc = await PDFDocument.load(previous, { updateMetadata: false });
  const before = new Map<string, string>();
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) before.set(ref.tag, fingerprint(object));
  const prevXref = lastStartXref(previous);

  async function save(): Promise<Buffer> {
    // Embedded fonts and images are written into their objects only on flush.
    await doc.flush();
    const changed: [PDFRef, PDFObject][] = doc.context
      .enumerateIndirectObjects()
      .filter(([ref, object]) => before.get(ref.tag) !== fingerprint(object))
      .sort(([a], [b]) => a.objectNumber - b.objectNumber);
    const parts: Buffer[] = [previous];
    let offset = previous.length;
    const push = (chunk: Buffer | string) => {
      const b = typeof chunk === "string" ? Buffer.from(chunk, "latin1") : chunk;
      parts.push(b);
      offset += b.length;
    };
    if (previous[previous.length - 1] !== 0x0a) push("\n");
    const offsets: { ref: PDFRef; at: number }[] = [];
    for (const [ref, object] of changed) {
      offsets.push({ ref, at: offset });
      push(`${ref.objectNumber} ${ref.generationNumber} obj\n`);
      push(Buffer.from(serialize(object)));
      push("\nendobj\n");
    }
    const xrefAt = offset;
    push("xref\n");
    // Subsections of consecutive object numbers.
    for (let i = 0; i < offsets.length;) {
      let j = i;
      while (j + 1 < offsets.length && offsets[j + 1]!.ref.objectNumber === offsets[j]!.ref.objectNumber + 1) j++;
      push(`${offsets[i]!.ref.objectNumber} ${j - i + 1}\n`);
      for (let k = i; k <= j; k++) push(`${String(offsets[k]!.at).padStart(10, "0")} ${String(offsets[k]!.ref.generationNumber).padStart(5, "0")} n\r\n`);
      i = j + 1;
    }
    const { Root, Info, ID } = doc.context.trailerInfo;
    const trailer = [
      `/Size ${doc.context.largestObjectNumber + 1}`,
      Root ? `/Root ${Root.toString()}` : "",
      Info ? `/Info ${Info.toString()}` : "",
      ID ? `/ID ${ID.toString()}` : "",
      `/Prev ${prevXref}`,
    ].filter(Boolean);
    push(`trailer\n<< ${trailer.join(" ")} >>\nstartxref\n${xrefAt}\n%%EOF\n`);
    return Buffer.concat(parts);
  }

  return { doc, save };
}

/** The offset after the last `startxref`: where the previous revision's cross-reference section starts. */
function lastStartXref(pdf: Buffer): number {
  const tail = pdf.subarray(Math.max(0, pdf.length - 2048)).toString("latin1");
  const match = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!match) throw new Error("The PDF has no final startxref");
  return Number(match[1]);
}
