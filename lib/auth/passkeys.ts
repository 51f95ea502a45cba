import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { invalidField, invalidRequest, notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { displayNameProblem } from "@/lib/text";
import { auditSecurityEvent } from "@/lib/auth/two-factor";

// Passkeys (WebAuthn, @simplewebauthn/server): a second factor after the password, and a sign-in
// of their own. Challenges live in the database, are used once and expire after a few minutes.
// Decisions: docs/security.md, "Passkeys".

const RP_NAME = "Client Portals";
export const CHALLENGE_TTL_MS = 5 * 60_000;
const PASSKEY_NAME_MAX = 60;
/** A user may keep this many passkeys (phones, laptops, security keys). */
const MAX_PASSKEYS = 20;

/** The relying party: its id (WEBAUTHN_RP_ID, else APP_URL's host) and the origin browsers sign for. */
export function relyingParty(): { rpID: string; origin: string } {
  const { APP_URL, WEBAUTHN_RP_ID } = env();
  const url = new URL(APP_URL);
  return { rpID: WEBAUTHN_RP_ID ?? url.hostname, origin: url.origin };
}

type Purpose = "registration" | "authentication";

/** The WebAuthn user handle of an account: its id's 16 bytes (no email or name in it). */
const userHandleOf = (userId: string) => Buffer.from(userId.replace(/-/g, ""), "hex");

async function issueChallenge(challenge: string, purpose: Purpose, userId: string | null, now: Date): Promise<void> {
  // Anyone may ask for a sign-in challenge: expired ones go as new ones come, so the table holds
  // at most a few minutes' worth (the daily purge covers a quiet system).
  await db.webAuthnChallenge.deleteMany({ where: { expiresAt: { lte: now } } });
  await db.webAuthnChallenge.create({ data: { challenge, purpose, userId, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) } });
}

/**
 * The challenge an answer signed, taken (deleted) if it was issued for this purpose and user and
 * has not expired: of two answers to one challenge, one gets it. Null otherwise.
 */
async function takeChallenge(clientDataJSON: string, purpose: Purpose, userId: string | null, now: Date): Promise<string | null> {
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown }).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== "string" || challenge.length === 0 || challenge.length > 200) return null;
  const taken = await db.webAuthnChallenge.deleteMany({ where: { challenge, purpose, userId, expiresAt: { gt: now } } });
  return taken.count === 1 ? challenge : null;
}

// The shapes @simplewebauthn/browser returns; checked here because they come from the browser.
const b64url = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+$/);
const registrationSchema = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal("public-key"),
  response: z.looseObject({ clientDataJSON: b64url, attestationObject: b64url, transports: z.array(z.string().max(32)).max(10).optional() }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});
const authenticationSchema = z.object({
  id: b64url,
  rawId: b64url,
  type: z.literal("public-key"),
  response: z.looseObject({ clientDataJSON: b64url, authenticatorData: b64url, signature: b64url, userHandle: b64url.optional() }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.string().max(32).optional(),
});

/** A browser's answer as JSON text (a form field) or as the object; null when it is not one. */
function parseAnswer<T>(schema: z.ZodType<T>, answer: unknown): T | null {
  let value = answer;
  if (typeof answer === "string") {
    try {
      value = JSON.parse(answer);
    } catch {
      return null;
    }
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** The user's passkeys, newest first (the settings page). */
export async function listPasskeys({ userId }: { userId: string }) {
  return db.passkey.findMany({
    where: { userId },
    select: { id: true, name: true, createdAt: true, lastUsedAt: true, deviceType: true, backedUp: true },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
  });
}

export type PasskeySummary = Awaited<ReturnType<typeof listPasskeys>>[number];

/**
 * Step 1 of adding a passkey: the options for `navigator.credentials.create`. A discoverable
 * credential (it can sign in without an email), not one the user already has. Like TOTP, only
 * for accounts with a password: a passkey here is a second factor to the password.
 */
export async function startPasskeyRegistration({ userId, now = new Date() }: { userId: string; now?: Date }): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { email: true, name: true, passwordHash: true, passkeys: { select: { credentialId: true, transports: true } } },
  });
  if (!user) throw notFound("User");
  if (!user.passwordHash) throw invalidRequest("Choose a password first: a passkey is a second factor to it");
  if (user.passkeys.length >= MAX_PASSKEYS) throw invalidRequest(`You have ${MAX_PASSKEYS} passkeys; remove one before adding another`);
  const { rpID } = relyingParty();
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.email,
    userDisplayName: user.name ?? user.email,
    // The user handle: the account's id, so that a discoverable passkey names its account.
    userID: new Uint8Array(userHandleOf(userId)),
    attestationType: "none",
    excludeCredentials: user.passkeys.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await issueChallenge(options.challenge, "registration", userId, now);
  return options;
}

/** Step 2: the authenticator's answer checked against the challenge; the passkey is kept under `name`. Audited. */
export async function finishPasskeyRegistration({
  userId,
  name,
  answer,
  now = new Date(),
}: {
  userId: string;
  name: string;
  answer: unknown;
  now?: Date;
}): Promise<PasskeySummary> {
  const label = name.trim();
  if (!label) throw invalidField("name", "Name the passkey (for example, the device it is on)");
  if (label.length > PASSKEY_NAME_MAX) throw invalidField("name", `At most ${PASSKEY_NAME_MAX} characters`);
  const problem = displayNameProblem(label);
  if (problem) throw invalidField("name", problem);
  const response = parseAnswer<RegistrationResponseJSON>(registrationSchema as z.ZodType<RegistrationResponseJSON>, answer);
  if (!response) throw invalidRequest("The browser's answer was not a passkey; try again");
  const challenge = await takeChallenge(response.response.clientDataJSON, "registration", userId, now);
  if (!challenge) throw invalidRequest("That request to add a passkey expired or was used; start again");
  const { rpID, origin } = relyingParty();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    throw invalidRequest("The passkey could not be checked; start again");
  }
  if (!verification.verified) throw invalidRequest("The passkey could not be checked; start again");
  const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo;
  return db.$transaction(async (tx) => {
    if ((await tx.passkey.count({ where: { credentialId: credential.id } })) > 0) throw invalidRequest("This passkey is already registered");
    const created = await tx.passkey.create({
      data: {
        userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey),
        counter: BigInt(credential.counter),
        transports: credential.transports ?? [],
        deviceType: credentialDeviceType,
        backedUp: credentialBackedUp,
        name: label,
      },
      select: { id: true, name: true, createdAt: true, lastUsedAt: true, deviceType: true, backedUp: true },
    });
    await auditSecurityEvent(tx, userId, "passkey.added", { passkeyId: created.id, name: label });
    return created;
  });
}

/** Removes one of the user's own passkeys (another user's id is not found). Audited. */
export async function removePasskey({ userId, passkeyId }: { userId: string; passkeyId: string }): Promise<void> {
  if (!isUuid(passkeyId)) throw notFound("Passkey");
  await db.$transaction(async (tx) => {
    const [gone] = await tx.passkey.findMany({ where: { id: passkeyId, userId }, select: { name: true } });
    const removed = await tx.passkey.deleteMany({ where: { id: passkeyId, userId } });
    if (!gone || removed.count !== 1) throw notFound("Passkey");
    await auditSecurityEvent(tx, userId, "passkey.removed", { passkeyId, name: gone.name });
  });
}

/**
 * Options for `navigator.credentials.get` at sign-in: no list of credentials (the browser offers
 * the passkeys it has for this site), so the options say nothing about any account. A sign-in with
 * the passkey alone needs user verification (PIN or biometric: two factors in one); as a second
 * factor after the password, presence is enough.
 */
export async function startPasskeySignIn({ alone, now = new Date() }: { alone: boolean; now?: Date }): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const options = await generateAuthenticationOptions({ rpID: relyingParty().rpID, userVerification: alone ? "required" : "preferred" });
  await issueChallenge(options.challenge, "authentication", null, now);
  return options;
}

export type PasskeyAssertion = { ok: true; userId: string; passkeyId: string } | { ok: false; userId: string | null };

/**
 * Checks a sign-in answer: the challenge (taken, so used once), the passkey (of `userId` when
 * given), the signature, user verification when `alone`, and the signature counter, which must
 * grow when the authenticator keeps one (a lower or equal value means a cloned authenticator or a
 * replay). The counter and last use are written only if no other sign-in moved the counter first.
 * A failure names the passkey's owner when known (the caller counts it) and is audited as
 * `two_factor.failed`.
 */
export async function verifyPasskeySignIn({
  answer,
  userId,
  alone,
  now = new Date(),
}: {
  answer: unknown;
  userId?: string;
  alone: boolean;
  now?: Date;
}): Promise<PasskeyAssertion> {
  const response = parseAnswer<AuthenticationResponseJSON>(authenticationSchema as z.ZodType<AuthenticationResponseJSON>, answer);
  if (!response) return failed(userId ?? null);
  const passkey = await db.passkey.findFirst({ where: { credentialId: response.id, ...(userId ? { userId } : {}) } });
  const challenge = await takeChallenge(response.response.clientDataJSON, "authentication", null, now);
  if (!passkey) return failed(userId ?? null);
  if (!challenge) return failed(passkey.userId);
  // A discoverable passkey also names its account; it must be the passkey's owner.
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== userHandleOf(passkey.userId).toString("base64url")) return failed(passkey.userId);
  const { rpID, origin } = relyingParty();
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(passkey.publicKey), counter: Number(passkey.counter), transports: passkey.transports },
      requireUserVerification: alone,
    });
    if (!verification.verified) return failed(passkey.userId);
    newCounter = verification.authenticationInfo.newCounter;
  } catch {
    return failed(passkey.userId);
  }
  const won = await db.passkey.updateMany({ where: { id: passkey.id, counter: passkey.counter }, data: { counter: BigInt(newCounter), lastUsedAt: now } });
  if (won.count !== 1) return failed(passkey.userId);
  return { ok: true, userId: passkey.userId, passkeyId: passkey.id };
}

async function failed(userId: string | null): Promise<PasskeyAssertion> {
  if (userId) await db.$transaction((tx) => auditSecurityEvent(tx, userId, "two_factor.failed", { method: "passkey" }));
  return { ok: false, userId };
}

/** Challenges past their expiry (never answered): the daily purge deletes them. */
export async function purgeExpiredChallenges(now = new Date()): Promise<number> {
  return (await db.webAuthnChallenge.deleteMany({ where: { expiresAt: { lte: now } } })).count;
}
