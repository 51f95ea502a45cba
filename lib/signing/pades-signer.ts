import forge from "node-forge";
import { Signer } from "@signpdf/utils";
import { loadIdentity, type SigningIdentity } from "./certificate";

// The CMS signature for PAdES baseline B-B (ETSI EN 319 142-1, CAdES EN 319 122-1 section 5.2):
// signed attributes content-type, message-digest and ESS signing-certificate-v2; no signing-time
// (B-B forbids it: the claimed time is the signature dictionary's /M, which @signpdf's
// placeholder writes). @signpdf/signer-p12 (3.3) signs with content-type, signing-time and
// message-digest and has no way to add signing-certificate-v2, and node-forge's pkcs7 encodes
// only those three attribute types; so this signer lets forge build the SignedData, then adds the
// signing-certificate-v2 attribute to the SignerInfo's signed attributes and signs them again
// with the same key (RSA PKCS#1 v1.5, SHA-256).

const { asn1 } = forge;
const OID_SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47";

/** ESS signing-certificate-v2 with one ESSCertIDv2: the SHA-256 of the signer's certificate (the default hash, so no algorithm; no issuerSerial, as B-B recommends). */
function signingCertificateV2(certificate: forge.pki.Certificate): forge.asn1.Asn1 {
  const der = asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes();
  const hash = forge.md.sha256.create().update(der).digest().getBytes();
  return asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(OID_SIGNING_CERTIFICATE_V2).getBytes()),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, [
      asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
          asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, hash)]),
        ]),
      ]),
    ]),
  ]);
}

const der = (node: forge.asn1.Asn1) => asn1.toDer(node).getBytes();
const OID_TIME_STAMP_TOKEN = "1.2.840.113549.1.9.16.2.14";

/** A function that returns an RFC 3161 time-stamp token (a DER ContentInfo) over a signature value. */
export type TimeStamper = (signatureValue: Buffer) => Promise<Buffer>;

/**
 * A CMS SignedData (ContentInfo) by `key`/`certificate` over `content`, with the signed attributes
 * content-type (`contentType`, id-data by default), message-digest and ESS signing-certificate-v2,
 * RSA PKCS#1 v1.5 with SHA-256. Detached (the PDF case) or with the content inside (a time-stamp
 * token's TSTInfo, whose eContentType is then `contentType` as well).
 */
export function signCms({
  key,
  certificate,
  chain,
  content,
  detached,
  contentType = forge.pki.oids.data!,
}: {
  key: forge.pki.rsa.PrivateKey;
  certificate: forge.pki.Certificate;
  chain: forge.pki.Certificate[];
  content: Buffer;
  detached: boolean;
  contentType?: string;
}): forge.asn1.Asn1 {
  const p7 = forge.pkcs7.createSignedData();
  p7.content = forge.util.createBuffer(content.toString("binary"));
  for (const cert of chain) p7.addCertificate(cert);
  p7.addSigner({
    key,
    certificate,
    digestAlgorithm: forge.pki.oids.sha256!,
    authenticatedAttributes: [{ type: forge.pki.oids.contentType!, value: contentType }, { type: forge.pki.oids.messageDigest! }],
  });
  p7.sign({ detached });

  // ContentInfo { contentType, [0] { SignedData { version, digestAlgorithms, encapContentInfo, [0] certificates, signerInfos } } }
  const contentInfo = p7.toAsn1();
  const signedData = (contentInfo.value as forge.asn1.Asn1[])[1]!.value[0] as forge.asn1.Asn1;
  if (contentType !== forge.pki.oids.data) {
    // forge always writes id-data as the eContentType; SignedData version 3 for any other (RFC 5652 5.1).
    const encap = (signedData.value as forge.asn1.Asn1[])[2]!;
    (encap.value as forge.asn1.Asn1[])[0] = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(contentType).getBytes());
    (signedData.value as forge.asn1.Asn1[])[0] = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(3).getBytes());
  }
  const signerInfos = (signedData.value as forge.asn1.Asn1[]).at(-1)!;
  const signerInfo = (signerInfos.value as forge.asn1.Asn1[])[0]!;
  // SignerInfo { version, sid, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature }
  const fields = signerInfo.value as forge.asn1.Asn1[];
  const signedAttrs = fields[3]!;
  const attrs = [...(signedAttrs.value as forge.asn1.Asn1[]), signingCertificateV2(certificate)];
  // DER: a SET OF is sorted by the encodings of its elements.
  attrs.sort((a, b) => (der(a) < der(b) ? -1 : der(a) > der(b) ? 1 : 0));
  signedAttrs.value = attrs;
  // The signature covers the attributes encoded as a SET (RFC 5652 5.4), not the [0] IMPLICIT of the SignerInfo.
  const md = forge.md.sha256.create().update(der(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, attrs)));
  fields[5] = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, key.sign(md));
  return contentInfo;
}

/** The SignerInfo of a ContentInfo made by signCms (its only signer). */
function signerInfoOf(contentInfo: forge.asn1.Asn1): forge.asn1.Asn1[] {
  const signedData = (contentInfo.value as forge.asn1.Asn1[])[1]!.value[0] as forge.asn1.Asn1;
  const signerInfos = (signedData.value as forge.asn1.Asn1[]).at(-1)!;
  return (signerInfos.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
}

/**
 * PAdES B-B, or B-T with a time-stamper: the token over the signature value goes into the
 * SignerInfo's unsigned attributes as id-aa-signatureTimeStampToken (RFC 3161 appendix A).
 */
export class PadesSigner extends Signer {
  constructor(
    private readonly identity: SigningIdentity,
    private readonly timeStamp: TimeStamper | null = null,
  ) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    const { privateKey, certificate, chain } = loadIdentity(this.identity);
    const contentInfo = signCms({ key: privateKey, certificate, chain, content: pdfBuffer, detached: true });
    if (this.timeStamp) {
      const fields = signerInfoOf(contentInfo);
      const signatureValue = Buffer.from(fields[5]!.value as string, "binary");
      const token = asn1.fromDer(forge.util.createBuffer((await this.timeStamp(signatureValue)).toString("binary")));
      const attribute = asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, [
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(OID_TIME_STAMP_TOKEN).getBytes()),
        asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, [token]),
      ]);
      // unsignedAttrs [1] IMPLICIT SET OF Attribute, after the signature.
      fields.push(asn1.create(asn1.Class.CONTEXT_SPECIFIC, 1, true, [attribute]));
    }
    return Buffer.from(der(contentInfo), "binary");
  }
}
