import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import forge from "node-forge";

// An independent reading of a signed PDF for tests: the last signature's /ByteRange and /Contents,
// the CMS parsed with node-forge, the digest of the signed ranges against the CMS message-digest,
// the RSA signature over the signed attributes against the signer certificate, and poppler's tools.

const { asn1 } = forge;
const run = promisify(execFile);
export const OID = {
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingTime: "1.2.840.113549.1.9.5",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  timeStampToken: "1.2.840.113549.1.9.16.2.14",
};

export interface SignatureCheck {
  byteRange: [number, number, number, number];
  subFilter: string | null;
  /** SHA-256 of the signed ranges equals the CMS message-digest attribute. */
  digestMatches: boolean;
  /** The signature over the signed attributes verifies with the signer certificate's key. */
  signatureValid: boolean;
  /** The CMS certificates, DER as hex, the signer's first. */
  certificates: string[];
  signerCertificate: forge.pki.Certificate;
  attributeOids: string[];
  /** The ESS signing-certificate-v2 hash equals SHA-256 of the signer certificate. */
  signingCertificateMatches: boolean;
  /** Whether the signed ranges cover the whole file except the /Contents value. */
  coversWholeFile: boolean;
}

const certDerHex = (c: forge.pki.Certificate) => forge.util.bytesToHex(asn1.toDer(forge.pki.certificateToAsn1(c)).getBytes());

export function checkPdfSignature(pdf: Buffer): SignatureCheck {
  const text = pdf.toString("latin1");
  const at = text.lastIndexOf("/ByteRange");
  if (at < 0) throw new Error("no /ByteRange in the PDF");
  const m = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(text.slice(at));
  if (!m) throw new Error("unreadable /ByteRange");
  const byteRange = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as [number, number, number, number];
  const [a, b, c, d] = byteRange;
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  const hex = text.slice(a + b + 1, c - 1);
  // /Contents is zero-padded after the DER: parse the first object only (the typings miss the options form).
  const cms = asn1.fromDer(forge.util.hexToBytes(hex), { parseAllBytes: false } as unknown as boolean);
  const signedData = (cms.value as forge.asn1.Asn1[])[1]!.value[0] as forge.asn1.Asn1;
  const parts = signedData.value as forge.asn1.Asn1[];
  const certsNode = parts.find((p) => p.tagClass === asn1.Class.CONTEXT_SPECIFIC && p.type === 0);
  const certs = ((certsNode?.value ?? []) as forge.asn1.Asn1[]).map((n) => forge.pki.certificateFromAsn1(n));
  const signerInfo = (parts.at(-1)!.value as forge.asn1.Asn1[])[0]!;
  const fields = signerInfo.value as forge.asn1.Asn1[];
  const attrsNode = fields.find((f) => f.tagClass === asn1.Class.CONTEXT_SPECIFIC && f.type === 0)!;
  const attrs = attrsNode.value as forge.asn1.Asn1[];
  const attrOid = (attr: forge.asn1.Asn1) => asn1.derToOid((attr.value as forge.asn1.Asn1[])[0]!.value as string);
  const attrValue = (oid: string) => {
    const attr = attrs.find((x) => attrOid(x) === oid);
    return attr ? ((attr.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]! : null;
  };
  const digest = attrValue(OID.messageDigest)?.value as string | undefined;
  const ranges = createHash("sha256").update(signed).digest("binary");
  // The signature value: the OCTET STRING after the algorithm (unsigned attributes may follow it).
  const signature = fields.find((f) => f.tagClass === asn1.Class.UNIVERSAL && f.type === asn1.Type.OCTETSTRING)!.value as string;
  // Issuer and serial of the SignerInfo pick the signer certificate.
  const serial = forge.util.bytesToHex((fields[1]!.value as forge.asn1.Asn1[])[1]!.value as string).replace(/^0+/, "");
  const signerCertificate = certs.find((cert) => cert.serialNumber.replace(/^0+/, "") === serial) ?? certs[0]!;
  const md = forge.md.sha256.create().update(asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, attrs)).getBytes());
  let signatureValid = false;
  try {
    signatureValid = (signerCertificate.publicKey as forge.pki.rsa.PublicKey).verify(md.digest().bytes(), signature);
  } catch {
    signatureValid = false;
  }
  const ess = attrValue(OID.signingCertificateV2);
  // SigningCertificateV2 { certs { ESSCertIDv2 { certHash } } } (SHA-256, the default: no algorithm).
  const essFirst = ess ? (((ess.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[])[0]! : null;
  const certHash = createHash("sha256")
    .update(Buffer.from(certDerHex(signerCertificate), "hex"))
    .digest("binary");
  const sub = /\/SubFilter\s*\/([A-Za-z0-9.]+)/.exec(text.slice(Math.max(0, at - 2000), at + 2000));
  return {
    byteRange,
    subFilter: sub?.[1] ?? null,
    digestMatches: digest === ranges,
    signatureValid,
    certificates: certs.map(certDerHex),
    signerCertificate,
    attributeOids: attrs.map(attrOid),
    signingCertificateMatches: essFirst !== null && essFirst.value === certHash,
    coversWholeFile: a === 0 && c + d === pdf.length && pdf[a + b] === 0x3c && pdf[c - 1] === 0x3e,
  };
}

/** Runs a poppler tool (pdfsig, pdftotext, pdfimages) on the bytes; stdout, also on a non-zero exit. */
export async function poppler(tool: "pdfsig" | "pdftotext" | "pdfimages" | "pdfinfo", pdf: Buffer, args: string[] = []): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "signed-pdf-"));
  const file = path.join(dir, "doc.pdf");
  try {
    await writeFile(file, pdf);
    try {
      const { stdout } = await run(tool, [...args, file, ...(tool === "pdftotext" ? ["-"] : [])]);
      return stdout;
    } catch (e) {
      const err = e as { code?: string | number; stdout?: string };
      if (err.code === "ENOENT") throw new Error(`${tool} is not installed (Debian: apt-get install poppler-utils)`);
      return err.stdout ?? "";
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every signed revision of a PDF, oldest first: the bytes up to the end of each signature's second range. */
export function signedRevisions(pdf: Buffer): Buffer[] {
  const text = pdf.toString("latin1");
  const revisions: Buffer[] = [];
  for (const m of text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)) {
    revisions.push(pdf.subarray(0, Number(m[3]) + Number(m[4])));
  }
  return revisions;
}

export interface TimeStampCheck {
  /** The token's TSTInfo imprint is SHA-256 of the signature value it stamps. */
  imprintMatches: boolean;
  /** The token's message-digest is SHA-256 of its TSTInfo, and its signature verifies with `tsaCertificate`. */
  tokenValid: boolean;
  genTime: Date;
}

/** The signature time-stamp token in the unsigned attributes of the last signature of `pdf`, checked; null when there is none. */
export function checkTimeStamp(pdf: Buffer, tsaCertificate: forge.pki.Certificate): TimeStampCheck | null {
  const text = pdf.toString("latin1");
  const [a, b, c] = checkPdfSignature(pdf).byteRange;
  void a;
  const cms = asn1.fromDer(forge.util.hexToBytes(text.slice(b + 1, c - 1)), { parseAllBytes: false } as unknown as boolean);
  const signedData = (cms.value as forge.asn1.Asn1[])[1]!.value[0] as forge.asn1.Asn1;
  const fields = ((signedData.value as forge.asn1.Asn1[]).at(-1)!.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
  const unsigned = fields.find((f) => f.tagClass === asn1.Class.CONTEXT_SPECIFIC && f.type === 1);
  if (!unsigned) return null;
  const attr = (unsigned.value as forge.asn1.Asn1[]).find((x) => asn1.derToOid((x.value as forge.asn1.Asn1[])[0]!.value as string) === OID.timeStampToken);
  if (!attr) return null;
  const signatureValue = fields.find((f) => f.tagClass === asn1.Class.UNIVERSAL && f.type === asn1.Type.OCTETSTRING)!.value as string;
  const token = ((attr.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!;
  const tokenData = (token.value as forge.asn1.Asn1[])[1]!.value[0] as forge.asn1.Asn1;
  const parts = tokenData.value as forge.asn1.Asn1[];
  const tstDer = ((parts[2]!.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!.value as string;
  const tst = asn1.fromDer(tstDer).value as forge.asn1.Asn1[];
  const imprint = tst[2]!.value as forge.asn1.Asn1[];
  const imprintMatches = imprint[1]!.value === forge.md.sha256.create().update(signatureValue).digest().getBytes();
  const tokenSigner = (parts.at(-1)!.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
  const attrs = tokenSigner.find((f) => f.tagClass === asn1.Class.CONTEXT_SPECIFIC && f.type === 0)!.value as forge.asn1.Asn1[];
  const digestAttr = attrs.find((x) => asn1.derToOid((x.value as forge.asn1.Asn1[])[0]!.value as string) === OID.messageDigest)!;
  const digest = ((digestAttr.value as forge.asn1.Asn1[])[1]!.value as forge.asn1.Asn1[])[0]!.value as string;
  const md = forge.md.sha256.create().update(asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, attrs)).getBytes());
  let signed = false;
  try {
    signed = (tsaCertificate.publicKey as forge.pki.rsa.PublicKey).verify(md.digest().bytes(), tokenSigner.at(-1)!.value as string);
  } catch {
    signed = false;
  }
  return {
    imprintMatches,
    tokenValid: signed && digest === forge.md.sha256.create().update(tstDer).digest().getBytes(),
    genTime: asn1.generalizedTimeToDate(tst[4]!.value as string),
  };
}
