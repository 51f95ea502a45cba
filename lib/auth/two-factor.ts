import { generateSecret, generateURI, verify } from "otplib";
import { decrypt, encrypt, randomToken, sha256Hex } from "@/lib/crypto";
import { db, type Tx } from "@/lib/db";
import { invalidRequest } from "@/lib/errors";
import { recordAudit } from "@/lib/audit/record-audit";

// TOTP two-factor authentication (RFC 6238: 6 digits, 30 s steps, SHA-1, as authenticator apps
// expect) with single-use recovery codes. Decisions: docs/security.md, "Two-factor authentication".

export const RECOVERY_CODE_COUNT = 10;
const ISSUER = "Client Portals";
/** One step either side of now is accepted (clock drift of the phone). */
const TOLERANCE_SECONDS = 30;

const normaliseCode = (code: string) => code.replace(/[\s-]/g, "").toLowerCase();

/** Whether the user has TOTP on. */
async function hasTotp(userId: string): Promise<boolean> {
  return (await db.twoFactor.count({ where: { userId, enabledAt: { not: null } } })) > 0;
}

/** The user's second factors: TOTP on, and how many passkeys (lib/auth/passkeys.ts). One query. */
export async function secondFactorsOf(userId: string): Promise<{ totp: boolean; passkeys: number }> {
  const row = await db.user.findUnique({
    where: { id: userId },
    select: { twoFactor: { select: { enabledAt: true } }, _count: { select: { passkeys: true } } },
  });
  return { totp: Boolean(row?.twoFactor?.enabledAt), passkeys: row?._count.passkeys ?? 0 };
}

/** Whether the user has two-factor on: TOTP or at least one passkey (sign-in then asks for one). */
export async function hasSecondFactor(userId: string): Promise<boolean> {
  const factors = await secondFactorsOf(userId);
  return factors.totp || factors.passkeys > 0;
}

/** Starts (or restarts) enrolment: a new secret, not yet in force, and the otpauth:// URI for the app. */
export async function startTotpEnrolment({ userId, email }: { userId: string; email: string }): Promise<{ secret: string; uri: string }> {
  if (await hasTotp(userId)) throw invalidRequest("Two-factor authentication is already on");
  const secret = generateSecret();
  await db.twoFactor.upsert({
    where: { userId },
    create: { userId, secretEncrypted: encrypt(secret) },
    update: { secretEncrypted: encrypt(secret), enabledAt: null, lastUsedStep: null },
  });
  return { secret, uri: generateURI({ issuer: ISSUER, label: email, secret }) };
}

/** The step a TOTP code is valid for, or null. Codes at or before `after` were used already. */
async function totpStep(secretEncrypted: string, code: string, now: Date, after: number | null): Promise<number | null> {
  const token = normaliseCode(code);
  if (!/^\d{6}$/.test(token)) return null;
  const result = await verify({ secret: decrypt(secretEncrypted), token, epoch: Math.floor(now.getTime() / 1000), epochTolerance: TOLERANCE_SECONDS });
  if (!result.valid || !("timeStep" in result)) return null;
  const step = Number(result.timeStep);
  return after !== null && step <= after ? null : step;
}

/** The organizations whose audit logs show the user's security events (member or guest). */
async function orgsOf(tx: Tx, userId: string): Promise<string[]> {
  const [members, guests] = await Promise.all([
    tx.membership.findMany({ where: { userId }, select: { orgId: true } }),
    tx.portalGuest.findMany({ where: { userId }, select: { orgId: true } }),
  ]);
  return [...new Set([...members, ...guests].map((r) => r.orgId))];
}

export async function auditSecurityEvent(tx: Tx, userId: string, action: string, metadata: Record<string, string> = {}): Promise<void> {
  for (const orgId of await orgsOf(tx, userId)) {
    await recordAudit(tx, { orgId, actor: { type: "user", userId }, action, targetType: "user", targetId: userId, metadata });
  }
}

/**
 * Confirms enrolment with a code from the app: two-factor is on from then, and the recovery
 * codes are returned, once (only their hashes are kept).
 */
export async function confirmTotpEnrolment({ userId, code, now = new Date() }: { userId: string; code: string; now?: Date }): Promise<string[]> {
  const pending = await db.twoFactor.findUnique({ where: { userId } });
  if (!pending || pending.enabledAt) throw invalidRequest("code: Start the set-up again");
  const step = await totpStep(pending.secretEncrypted, code, now, null);
  if (step === null) throw invalidRequest("code: That code is not right; check the app's clock and enter the current code");
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    randomToken(10)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "")
      .slice(0, 10),
  );
  await db.$transaction(async (tx) => {
    const claimed = await tx.twoFactor.updateMany({ where: { userId, enabledAt: null }, data: { enabledAt: now, lastUsedStep: step } });
    if (claimed.count !== 1) throw invalidRequest("code: Start the set-up again");
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await tx.recoveryCode.createMany({ data: codes.map((c) => ({ userId, codeHash: sha256Hex(c) })) });
    await auditSecurityEvent(tx, userId, "two_factor.enabled", { method: "totp" });
  });
  return codes;
}

export type SecondFactorCheck = "totp" | "recovery_code" | null;

/**
 * A second factor at sign-in: a TOTP code not used before, or an unused recovery code (used up
 * by this). Null when neither; the caller counts the failure. A failure is audited.
 */
export async function checkSecondFactor({ userId, code, now = new Date() }: { userId: string; code: string; now?: Date }): Promise<SecondFactorCheck> {
  const row = await db.twoFactor.findUnique({ where: { userId } });
  if (!row?.enabledAt) return null;
  const step = await totpStep(row.secretEncrypted, code, now, row.lastUsedStep);
  if (step !== null) {
    // Conditional: of two sign-ins racing with the same code, one wins.
    const won = await db.twoFactor.updateMany({
      where: { userId, OR: [{ lastUsedStep: null }, { lastUsedStep: { lt: step } }] },
      data: { lastUsedStep: step },
    });
    if (won.count === 1) return "totp";
  } else {
    const used = await db.recoveryCode.updateMany({ where: { userId, codeHash: sha256Hex(normaliseCode(code)), usedAt: null }, data: { usedAt: now } });
    if (used.count === 1) {
      await db.$transaction((tx) => auditSecurityEvent(tx, userId, "two_factor.recovery_code_used"));
      return "recovery_code";
    }
  }
  await db.$transaction((tx) => auditSecurityEvent(tx, userId, "two_factor.failed"));
  return null;
}

/** Turns two-factor off, proven by a current code or a recovery code. */
export async function disableTwoFactor({ userId, code, now = new Date() }: { userId: string; code: string; now?: Date }): Promise<void> {
  if (!(await checkSecondFactor({ userId, code, now }))) throw invalidRequest("code: That code is not right");
  await db.$transaction(async (tx) => {
    await tx.twoFactor.deleteMany({ where: { userId } });
    await tx.recoveryCode.deleteMany({ where: { userId } });
    await auditSecurityEvent(tx, userId, "two_factor.disabled", { method: "totp" });
  });
}

/** For the settings page: whether two-factor is on, since when, the unused recovery codes, and whether the user has a password. */
export async function twoFactorStatus(userId: string): Promise<{ enabledAt: Date | null; recoveryCodesLeft: number; hasPassword: boolean }> {
  const [row, left, user] = await Promise.all([
    db.twoFactor.findUnique({ where: { userId }, select: { enabledAt: true } }),
    db.recoveryCode.count({ where: { userId, usedAt: null } }),
    db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } }),
  ]);
  return { enabledAt: row?.enabledAt ?? null, recoveryCodesLeft: left, hasPassword: Boolean(user?.passwordHash) };
}
