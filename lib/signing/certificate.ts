import "server-only";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import forge from "node-forge";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

// The organization's signing certificate: PDF_SIGNING_P12 (+ PDF_SIGNING_P12_PASSWORD) when set;
// outside production, a self-signed certificate made with node-forge on first use and kept in
// .data/pdf-signing.json so every signed document of a development install has the same signer.

export interface SigningIdentity {
  /** The PKCS#12 file's bytes and its password, as @signpdf signers take them. */
  p12: Buffer;
  password: string;
}

export interface LoadedIdentity {
  privateKey: forge.pki.rsa.PrivateKey;
  /** The certificate whose public key matches the private key. */
  certificate: forge.pki.Certificate;
  /** Every certificate of the file, the signer's first (the chain the CMS carries). */
  chain: forge.pki.Certificate[];
}

const DEV_FILE = path.join(process.cwd(), ".data", "pdf-signing.json");

/** A self-signed signing certificate (RSA 2048, SHA-256, 3 years) as a PKCS#12 file. */
export function createSelfSignedP12({ commonName, password }: { commonName: string; password: string }): Buffer {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(15).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 3 * 365 * 24 * 3600 * 1000);
  const subject = [
    { name: "commonName", value: commonName },
    { name: "organizationName", value: "Client Portals (self-signed development certificate)" },
  ];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(keys.privateKey, [cert], password, { algorithm: "aes256" });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary");
}

function notConfigured(detail: string): AppError {
  return new AppError(
    "server_error",
    `PDF signing is not configured: ${detail}`,
    {},
    {
      userMessage: "Signing is not available right now: the firm's signing certificate is not set up. Please tell the firm.",
    },
  );
}

function devIdentity(): SigningIdentity {
  if (existsSync(DEV_FILE)) {
    const stored = JSON.parse(readFileSync(DEV_FILE, "utf8")) as { p12: string; password: string };
    return { p12: Buffer.from(stored.p12, "base64"), password: stored.password };
  }
  const password = randomBytes(18).toString("base64url");
  const p12 = createSelfSignedP12({ commonName: "Client Portals development signer", password });
  mkdirSync(path.dirname(DEV_FILE), { recursive: true });
  writeFileSync(DEV_FILE, JSON.stringify({ p12: p12.toString("base64"), password }), { mode: 0o600 });
  return { p12, password };
}

/** The configured identity (see lib/env.ts PDF_SIGNING_P12), or the development one. */
export function signingIdentity(): SigningIdentity {
  const e = env();
  const configured = e.PDF_SIGNING_P12;
  if (!configured) {
    if (e.NODE_ENV === "production") throw notConfigured("set PDF_SIGNING_P12 (a .p12 file path, or base64:<bytes>) and PDF_SIGNING_P12_PASSWORD");
    return devIdentity();
  }
  if (configured.startsWith("base64:")) return { p12: Buffer.from(configured.slice("base64:".length), "base64"), password: e.PDF_SIGNING_P12_PASSWORD };
  if (!existsSync(configured)) throw notConfigured(`PDF_SIGNING_P12 names ${configured}, which does not exist`);
  return { p12: readFileSync(configured), password: e.PDF_SIGNING_P12_PASSWORD };
}

/** The key and certificates of a PKCS#12 file; a wrong password or a file without a matching pair is a configuration error. */
export function loadIdentity({ p12, password }: SigningIdentity): LoadedIdentity {
  let parsed: forge.pkcs12.Pkcs12Pfx;
  try {
    parsed = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(p12.toString("binary"))), false, password);
  } catch (e) {
    throw notConfigured(`PDF_SIGNING_P12 could not be opened (${e instanceof Error ? e.message : String(e)}); check PDF_SIGNING_P12_PASSWORD`);
  }
  const certs = (parsed.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []).flatMap((b) => (b.cert ? [b.cert] : []));
  const keyBag =
    parsed.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!]?.[0] ??
    parsed.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!]?.[0];
  const privateKey = keyBag?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!privateKey) throw notConfigured("PDF_SIGNING_P12 holds no private key");
  const certificate = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.compareTo(privateKey.n) === 0 && pub.e?.compareTo(privateKey.e) === 0;
  });
  if (!certificate) throw notConfigured("PDF_SIGNING_P12 holds no certificate matching its private key (only RSA keys are supported)");
  return { privateKey, certificate, chain: [certificate, ...certs.filter((c) => c !== certificate)] };
}
