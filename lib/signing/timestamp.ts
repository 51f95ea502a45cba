import { createHash, randomBytes } from "node:crypto";
import forge from "node-forge";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { TimeStamper } from "./pades-signer";

// RFC 3161 client: a TimeStampReq (SHA-256 message imprint, a nonce, certReq) posted to the
// configured authority (PDF_SIGNING_TSA_URL), the TimeStampResp read back and checked (status
// granted, the token's TSTInfo imprint and nonce are ours) before its token goes into the
// signature. ASN.1 with node-forge, which the signing already uses (no pkijs/asn1js dependency
// for two small structures).

const { asn1 } = forge;
const U = asn1.Class.UNIVERSAL;
const OID_SHA256 = "2.16.840.1.101.3.4.2.1";
export const OID_TST_INFO = "1.2.840.113549.1.9.16.1.4";
const TIMEOUT_MS = 10_000;

const bytes = (b: Buffer) => b.toString("binary");
const seq = (value: forge.asn1.Asn1[]) => asn1.create(U, asn1.Type.SEQUENCE, true, value);

/** MessageImprint { AlgorithmIdentifier { sha256, NULL }, OCTET STRING hash }. */
function messageImprint(hash: Buffer): forge.asn1.Asn1 {
  return seq([
    seq([asn1.create(U, asn1.Type.OID, false, asn1.oidToDer(OID_SHA256).getBytes()), asn1.create(U, asn1.Type.NULL, false, "")]),
    asn1.create(U, asn1.Type.OCTETSTRING, false, bytes(hash)),
  ]);
}

/** A positive INTEGER's content octets from random bytes (leading bit clear). */
function positiveInteger(raw: Buffer): Buffer {
  const b = Buffer.from(raw);
  b[0] = b[0]! & 0x7f || 0x01;
  return b;
}

function timeStampRequest(hash: Buffer, nonce: Buffer): Buffer {
  const req = seq([
    asn1.create(U, asn1.Type.INTEGER, false, asn1.integerToDer(1).getBytes()),
    messageImprint(hash),
    asn1.create(U, asn1.Type.INTEGER, false, bytes(nonce)),
    asn1.create(U, asn1.Type.BOOLEAN, false, String.fromCharCode(0xff)),
  ]);
  return Buffer.from(asn1.toDer(req).getBytes(), "binary");
}

interface TstInfo {
  hashOid: string;
  hash: Buffer;
  nonce: Buffer | null;
  genTime: Date;
}

/** The TSTInfo of a time-stamp token (ContentInfo { SignedData { encapContentInfo { id-ct-TSTInfo, [0] OCTET STRING } } }). */
function readTstInfo(token: forge.asn1.Asn1): TstInfo {
  const signedData = (token.value as forge.asn1.Asn1[])[1]!.value[0] as forge.asn1.Asn1;
  const encap = (signedData.value as forge.asn1.Asn1[])[2]!.value as forge.asn1.Asn1[];
  if (asn1.derToOid(encap[0]!.value as string) !== OID_TST_INFO) throw new Error("not a TSTInfo");
  let octets = (encap[1]!.value as forge.asn1.Asn1[])[0]!;
  // An OCTET STRING may arrive constructed (BER); forge parses its content as nested values.
  const content = typeof octets.value === "string" ? octets.value : (octets.value as forge.asn1.Asn1[]).map((o) => o.value as string).join("");
  octets = asn1.fromDer(content);
  // TSTInfo { version, policy, messageImprint, serialNumber, genTime, accuracy?, ordering?, nonce?, ... }
  const f = octets.value as forge.asn1.Asn1[];
  const imprint = f[2]!.value as forge.asn1.Asn1[];
  const nonceNode = f.slice(5).find((n) => n.tagClass === U && n.type === asn1.Type.INTEGER);
  return {
    hashOid: asn1.derToOid((imprint[0]!.value as forge.asn1.Asn1[])[0]!.value as string),
    hash: Buffer.from(imprint[1]!.value as string, "binary"),
    nonce: nonceNode ? Buffer.from(nonceNode.value as string, "binary") : null,
    genTime: asn1.generalizedTimeToDate(f[4]!.value as string),
  };
}

function unavailable(detail: string): AppError {
  return new AppError(
    "service_unavailable",
    `The time-stamping authority ${detail}`,
    { "Retry-After": "60" },
    { userMessage: "Signing is not available right now: the time-stamping service did not answer. Try again in a minute." },
  );
}

/** A time-stamp token over SHA-256(`data`) from `url`; a failed or mismatched answer is service_unavailable. */
async function requestTimeStamp(url: string, data: Buffer): Promise<Buffer> {
  const hash = createHash("sha256").update(data).digest();
  const nonce = positiveInteger(randomBytes(8));
  let body: Buffer;
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/timestamp-query", accept: "application/timestamp-reply" },
      body: new Uint8Array(timeStampRequest(hash, nonce)),
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: "error",
    });
    if (!res.ok) throw unavailable(`answered HTTP ${res.status}`);
    body = Buffer.from(await res.arrayBuffer());
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw unavailable(`could not be reached (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    // TimeStampResp { status PKIStatusInfo { status, ... }, timeStampToken ContentInfo OPTIONAL }
    const resp = asn1.fromDer(body.toString("binary")).value as forge.asn1.Asn1[];
    const status = (resp[0]!.value as forge.asn1.Asn1[])[0]!;
    const code = forge.util.createBuffer(status.value as string).getInt(8 * (status.value as string).length);
    if (code !== 0 && code !== 1) throw new Error(`status ${code}`);
    const token = resp[1];
    if (!token) throw new Error("no token");
    const info = readTstInfo(token);
    if (info.hashOid !== OID_SHA256 || !info.hash.equals(hash)) throw new Error("the token's message imprint is not ours");
    if (!info.nonce || !info.nonce.equals(nonce)) throw new Error("the token's nonce is not ours");
    return Buffer.from(asn1.toDer(token).getBytes(), "binary");
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw unavailable(`gave an unusable answer (${e instanceof Error ? e.message : String(e)})`);
  }
}

/** The configured authority as a PadesSigner time-stamper, or null (PAdES B-B) when none is set. */
export function configuredTimeStamper(): TimeStamper | null {
  const url = env().PDF_SIGNING_TSA_URL;
  return url ? (signature) => requestTimeStamp(url, signature) : null;
}
