import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import forge from "node-forge";
import { signCms } from "../pades-signer";
import { OID_TST_INFO } from "../timestamp";

// A local RFC 3161 time-stamping authority for tests, on loopback: it answers a TimeStampReq with
// a granted TimeStampResp whose token is a CMS SignedData (id-ct-TSTInfo, signed by its own
// self-signed certificate with the critical timeStamping extended key usage) echoing the request's
// message imprint and nonce. It counts the requests it answered. No npm package offers an RFC 3161
// server; node-forge (the signing's ASN.1 library) builds the few structures.

const { asn1 } = forge;
const U = asn1.Class.UNIVERSAL;
const TSA_POLICY = "1.3.6.1.4.1.55555.1.1";

export interface TestTsa {
  url: string;
  certificate: forge.pki.Certificate;
  requests: number;
  close(): Promise<void>;
}

function tsaIdentity() {
  const keys = forge.pki.rsa.generateKeyPair({ bits: 2048, e: 0x10001 });
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = `01${randomBytes(8).toString("hex")}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600 * 1000);
  const subject = [{ name: "commonName", value: "Test Time-Stamping Authority" }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: "basicConstraints", cA: false },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true },
    { name: "extKeyUsage", critical: true, timeStamping: true },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return { key: keys.privateKey, certificate: cert };
}

function respond(request: Buffer, identity: ReturnType<typeof tsaIdentity>, serial: number): Buffer {
  // TimeStampReq { version, messageImprint, reqPolicy?, nonce?, certReq?, extensions? }
  const req = asn1.fromDer(request.toString("binary")).value as forge.asn1.Asn1[];
  const imprint = req[1]!;
  const nonce = req.slice(2).find((n) => n.tagClass === U && n.type === asn1.Type.INTEGER);
  const tstInfo = asn1.create(U, asn1.Type.SEQUENCE, true, [
    asn1.create(U, asn1.Type.INTEGER, false, asn1.integerToDer(1).getBytes()),
    asn1.create(U, asn1.Type.OID, false, asn1.oidToDer(TSA_POLICY).getBytes()),
    imprint,
    asn1.create(U, asn1.Type.INTEGER, false, asn1.integerToDer(serial).getBytes()),
    asn1.create(U, asn1.Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(new Date())),
    ...(nonce ? [nonce] : []),
  ]);
  const token = signCms({
    key: identity.key,
    certificate: identity.certificate,
    chain: [identity.certificate],
    content: Buffer.from(asn1.toDer(tstInfo).getBytes(), "binary"),
    detached: false,
    contentType: OID_TST_INFO,
  });
  const resp = asn1.create(U, asn1.Type.SEQUENCE, true, [
    asn1.create(U, asn1.Type.SEQUENCE, true, [asn1.create(U, asn1.Type.INTEGER, false, asn1.integerToDer(0).getBytes())]),
    token,
  ]);
  return Buffer.from(asn1.toDer(resp).getBytes(), "binary");
}

/** Starts the authority on 127.0.0.1 (a random port). */
export async function startTestTsa(): Promise<TestTsa> {
  const identity = tsaIdentity();
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.headers["content-type"] !== "application/timestamp-query") {
        res.writeHead(400).end();
        return;
      }
      try {
        const body = respond(Buffer.concat(chunks), identity, ++state.requests);
        res.writeHead(200, { "content-type": "application/timestamp-reply" }).end(body);
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/tsa`,
    certificate: identity.certificate,
    get requests() {
      return state.requests;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
