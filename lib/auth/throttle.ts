import { sha256Hex } from "@/lib/crypto";
import { db } from "@/lib/db";
import { sendEmail } from "@/lib/email/send-email";
import { accountLockedEmail } from "@/lib/email/templates/account-locked";
import { env } from "@/lib/env";

// Throttling of password sign-in, magic-link and password-reset requests (OWASP ASVS 4.0.3
// V2.2.1), per account and per client address, counted in the database so that every instance
// of the app agrees. Thresholds and reasons: docs/security.md, "Sign-in throttling".
//
// An account is named by the SHA-256 of its normalised email address, whether or not an account
// has it: unknown addresses are counted, delayed and locked exactly like known ones, so the
// answers never tell which addresses have accounts. Only the owner of a real account is emailed.

export type ThrottleKind = "password" | "magic-link" | "password-reset";

interface Policy {
  /** Events within the window that cost nothing. */
  free: number;
  /** After that, each event makes the next wait this long, doubling per event (at most `maxDelaySeconds`). */
  delaySeconds: number;
  maxDelaySeconds: number;
  /** The event that locks the key for AUTH_LOCK_MINUTES. */
  lockAt: number;
}

/** Failures (password) or requests (links) counted per window; the window restarts after a quiet one or a lock. */
const THROTTLE_WINDOW_MINUTES = 15;

export const POLICIES: Record<ThrottleKind, { account: Policy; ip: Policy }> = {
  password: {
    account: { free: 4, delaySeconds: 1, maxDelaySeconds: 16, lockAt: 10 },
    ip: { free: 20, delaySeconds: 1, maxDelaySeconds: 4, lockAt: 100 },
  },
  "magic-link": {
    account: { free: 3, delaySeconds: 15, maxDelaySeconds: 60, lockAt: 6 },
    ip: { free: 20, delaySeconds: 1, maxDelaySeconds: 4, lockAt: 50 },
  },
  "password-reset": {
    account: { free: 3, delaySeconds: 15, maxDelaySeconds: 60, lockAt: 6 },
    ip: { free: 20, delaySeconds: 1, maxDelaySeconds: 4, lockAt: 50 },
  },
};

export interface ThrottleSubject {
  kind: ThrottleKind;
  /** The address as typed; normalised here. "" when no account is known (a passkey nobody has): only the address counts. */
  email: string;
  /** The client's address; "" when unknown (then only the account is counted). */
  ip: string;
}

interface Key {
  key: string;
  scope: "account" | "ip";
  policy: Policy;
}

const normalise = (email: string) => email.trim().toLowerCase();

function keysOf({ kind, email, ip }: ThrottleSubject): Key[] {
  const keys: Key[] = [];
  if (normalise(email)) keys.push({ key: `${kind}:account:${sha256Hex(normalise(email))}`, scope: "account", policy: POLICIES[kind].account });
  if (ip) keys.push({ key: `${kind}:ip:${ip}`, scope: "ip", policy: POLICIES[kind].ip });
  return keys;
}

export type ThrottleState = { blocked: false } | { blocked: true; locked: boolean; retryAfterSeconds: number };

/** Whether the subject may try now: not while a key of it is locked or its delay has not passed. */
export async function checkThrottle(subject: ThrottleSubject, now = new Date()): Promise<ThrottleState> {
  const rows = await db.authThrottle.findMany({
    where: { key: { in: keysOf(subject).map((k) => k.key) }, OR: [{ lockedUntil: { gt: now } }, { nextAttemptAt: { gt: now } }] },
    select: { lockedUntil: true, nextAttemptAt: true },
  });
  if (rows.length === 0) return { blocked: false };
  const until = Math.max(...rows.map((r) => Math.max(r.lockedUntil?.getTime() ?? 0, r.nextAttemptAt?.getTime() ?? 0)));
  return { blocked: true, locked: rows.some((r) => r.lockedUntil && r.lockedUntil > now), retryAfterSeconds: Math.ceil((until - now.getTime()) / 1000) };
}

/** The wait after the `count`-th event of a window (0 while free). */
function delayAfter(policy: Policy, count: number): number {
  if (count <= policy.free) return 0;
  return Math.min(policy.maxDelaySeconds, policy.delaySeconds * 2 ** (count - policy.free - 1));
}

/**
 * Counts one event (a wrong password, a link asked for) against the account and the address:
 * atomically per key, so concurrent requests on any instance each count. Sets the next allowed
 * time, or the lock when the count reaches the policy's; a new lock of a real account emails its
 * owner once.
 */
export async function recordThrottledEvent(subject: ThrottleSubject, now = new Date()): Promise<void> {
  const windowStart = new Date(now.getTime() - THROTTLE_WINDOW_MINUTES * 60_000);
  const lockMinutes = env().AUTH_LOCK_MINUTES;
  for (const { key, scope, policy } of keysOf(subject)) {
    // A window that has gone quiet, or a lock that has run out, starts afresh.
    await db.authThrottle.updateMany({
      where: { key, OR: [{ lockedUntil: { lte: now } }, { lockedUntil: null, windowStartedAt: { lt: windowStart } }] },
      data: { count: 0, windowStartedAt: now, nextAttemptAt: null, lockedUntil: null },
    });
    const { count } = await db.authThrottle.upsert({
      where: { key },
      create: { key, count: 1, windowStartedAt: now },
      update: { count: { increment: 1 } },
      select: { count: true },
    });
    if (count >= policy.lockAt) {
      const locked = await db.authThrottle.updateMany({
        where: { key, lockedUntil: null },
        data: { lockedUntil: new Date(now.getTime() + lockMinutes * 60_000), nextAttemptAt: null },
      });
      if (locked.count === 1 && scope === "account") await notifyOwner(subject, count, lockMinutes);
    } else {
      const delay = delayAfter(policy, count);
      if (delay > 0) await db.authThrottle.updateMany({ where: { key, lockedUntil: null }, data: { nextAttemptAt: new Date(now.getTime() + delay * 1000) } });
    }
  }
}

/** A correct password: the account's failures are forgiven (the address's are not). */
export async function clearAccountThrottle(subject: ThrottleSubject): Promise<void> {
  const account = keysOf(subject).find((k) => k.scope === "account");
  if (account) await db.authThrottle.deleteMany({ where: { key: account.key } });
}

async function notifyOwner(subject: ThrottleSubject, attempts: number, minutes: number): Promise<void> {
  const user = await db.user.findUnique({ where: { email: normalise(subject.email) }, select: { email: true } });
  if (!user) return;
  await sendEmail({ to: user.email, template: "account-locked", ...accountLockedEmail({ kind: subject.kind, attempts, minutes, ip: subject.ip }) });
}

/**
 * A request for an emailed link (magic link, password reset): counted, and allowed unless the
 * account or the address is delayed or locked. The caller answers the same either way.
 */
export async function admitEmailRequest(subject: ThrottleSubject, now = new Date()): Promise<boolean> {
  if ((await checkThrottle(subject, now)).blocked) return false;
  await recordThrottledEvent(subject, now);
  return true;
}

/**
 * Deletes throttle rows that no longer hold anything back (window older than a day, no lock or
 * wait in force): they would start afresh anyway. Meant for a daily job; without it an attacker
 * spraying addresses only makes the table grow.
 */
export async function purgeStaleThrottles(now = new Date()): Promise<number> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const { count } = await db.authThrottle.deleteMany({
    where: {
      windowStartedAt: { lt: dayAgo },
      AND: [{ OR: [{ lockedUntil: null }, { lockedUntil: { lt: now } }] }, { OR: [{ nextAttemptAt: null }, { nextAttemptAt: { lt: now } }] }],
    },
  });
  return count;
}
