import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

// A WebAuthn authenticator in software for integration tests: an ES256 (P-256) key pair, "none"
// attestation, a signature counter, and the JSON a browser's @simplewebauthn/browser returns.
// The server side under test is the real @simplewebauthn/server verification.

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest();
const b64url = (data: Buffer | string) => Buffer.from(data).toString("base64url");

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  /** The signature counter; each assertion adds one first (set it lower to act as a clone). */
  counter = 0;
  /** The user handle stored with a discoverable credential (from the registration options). */
  userHandle: string | undefined;

  constructor(
    readonly rpID: string,
    readonly origin: string,
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  private coseKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    const coordinate = (v: string | undefined) => new Uint8Array(Buffer.from(v ?? "", "base64url"));
    // kty EC2, alg ES256, crv P-256, x, y (RFC 9053).
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, coordinate(jwk.x)],
        [-3, coordinate(jwk.y)],
      ]),
    );
  }

  private authenticatorData(flags: number, attested: boolean, rpID = this.rpID): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const parts = [sha256(rpID), Buffer.from([flags]), counter];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.coseKey()));
    }
    return Buffer.concat(parts);
  }

  /** navigator.credentials.create: a new credential for these options. */
  register(options: { challenge: string; user?: { id: string } }, { origin = this.origin } = {}): RegistrationResponseJSON {
    this.userHandle = options.user?.id;
    const clientDataJSON = JSON.stringify({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false });
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", new Uint8Array(this.authenticatorData(UP | UV | AT, true))],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(Buffer.from(attestationObject)), transports: ["internal"] },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** navigator.credentials.get: a signed assertion of this challenge (user verified unless told). */
  assert(options: { challenge: string }, { verified = true, origin = this.origin, rpID = this.rpID } = {}): AuthenticationResponseJSON {
    this.counter += 1;
    const clientDataJSON = JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false });
    const authenticatorData = this.authenticatorData(verified ? UP | UV : UP, false, rpID);
    const signature = sign("sha256", Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.keys.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
