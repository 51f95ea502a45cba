import { z } from "zod";
import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/auth/password";
import { checkThrottle, clearAccountThrottle, recordThrottledEvent } from "@/lib/auth/throttle";
import { verifyPasskeySignIn } from "@/lib/auth/passkeys";
import { checkSecondFactor, secondFactorsOf } from "@/lib/auth/two-factor";

const credentials = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(1).max(200),
  /** The second factor (TOTP or recovery code), for users with two-factor on. */
  code: z.string().max(100).optional(),
  /** Or a passkey's answer (JSON from @simplewebauthn/browser), for users with a passkey. */
  passkey: z.string().max(32_768).optional(),
});

/** The second factors an account offers at sign-in (the page shows the matching inputs). */
export type SecondFactorMethod = "passkey" | "totp";

// A hash of a random password, compared against when the user does not exist, so that response
// time does not tell which emails have accounts.
const DUMMY_HASH = "$2b$11$CwTycUXWue0Thq9StjUM0uJ8.7Ykqs1c4Yq9b6RcRP4bEl3k1kS2e";

export interface SignedInUser {
  id: string;
  email: string;
  name: string | null;
}

export type SignInAttempt =
  | { outcome: "ok"; user: SignedInUser }
  | { outcome: "wrong" }
  | { outcome: "throttled"; retryAfterSeconds: number }
  /** The password is right and the user has two-factor on: ask for a code or a passkey. */
  | { outcome: "second_factor"; methods: SecondFactorMethod[] }
  | { outcome: "wrong_second_factor"; methods: SecondFactorMethod[] };

/**
 * One password sign-in attempt from `ip`: refused unheard while the account or the address is
 * delayed or locked (lib/auth/throttle.ts); otherwise the password is checked, a wrong one
 * counted against both, a right one clearing the account's count. Never says which part was
 * wrong, and answers an unknown address exactly as a known one. With two-factor on, a right
 * password also needs a right code (lib/auth/two-factor.ts) or one of the user's passkeys
 * (lib/auth/passkeys.ts).
 */
export async function attemptPasswordSignIn(input: unknown, { ip = "", now = new Date() }: { ip?: string; now?: Date } = {}): Promise<SignInAttempt> {
  const parsed = credentials.safeParse(input);
  if (!parsed.success) return { outcome: "wrong" };
  const subject = { kind: "password" as const, email: parsed.data.email, ip };
  const throttle = await checkThrottle(subject, now);
  if (throttle.blocked) return { outcome: "throttled", retryAfterSeconds: throttle.retryAfterSeconds };
  const user = await db.user.findUnique({
    where: { email: parsed.data.email },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  const ok = await verifyPassword(parsed.data.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user?.passwordHash || !ok) {
    await recordThrottledEvent(subject, now);
    return { outcome: "wrong" };
  }
  const factors = await secondFactorsOf(user.id);
  const methods: SecondFactorMethod[] = [...(factors.passkeys > 0 ? (["passkey"] as const) : []), ...(factors.totp ? (["totp"] as const) : [])];
  if (methods.length > 0) {
    const code = parsed.data.code?.trim();
    const passkey = parsed.data.passkey?.trim();
    if (!code && !passkey) return { outcome: "second_factor", methods };
    // A wrong code or a failed passkey counts against the account like a wrong password: 6 digits
    // cannot be guessed 10 times per 15 minutes.
    const passed = passkey
      ? (await verifyPasskeySignIn({ answer: passkey, userId: user.id, alone: false, now })).ok
      : Boolean(await checkSecondFactor({ userId: user.id, code: code!, now }));
    if (!passed) {
      await recordThrottledEvent(subject, now);
      return { outcome: "wrong_second_factor", methods };
    }
  }
  await clearAccountThrottle(subject);
  return { outcome: "ok", user: { id: user.id, email: user.email, name: user.name } };
}

/** Checks an email and password; returns the user or null (wrong, or throttled). */
export async function verifyCredentials(input: unknown, options: { ip?: string; now?: Date } = {}): Promise<SignedInUser | null> {
  const attempt = await attemptPasswordSignIn(input, options);
  return attempt.outcome === "ok" ? attempt.user : null;
}

/**
 * A sign-in with a passkey alone (discoverable, user verified: something the user has and knows or
 * is). Refused unheard while the address is delayed or locked; a failure counts against the
 * address and, when the passkey is someone's, that account, as a wrong password does. An account
 * lock does not stop a passkey: it guards against guessing, and a passkey's signature cannot be
 * guessed.
 */
export async function attemptPasskeySignIn(input: unknown, { ip = "", now = new Date() }: { ip?: string; now?: Date } = {}): Promise<SignInAttempt> {
  const answer = z.object({ passkey: z.string().min(1).max(32_768) }).safeParse(input);
  const byAddress = { kind: "password" as const, email: "", ip };
  const throttle = await checkThrottle(byAddress, now);
  if (throttle.blocked) return { outcome: "throttled", retryAfterSeconds: throttle.retryAfterSeconds };
  const result = answer.success ? await verifyPasskeySignIn({ answer: answer.data.passkey, alone: true, now }) : { ok: false as const, userId: null };
  const owner = result.userId ? await db.user.findUnique({ where: { id: result.userId }, select: { id: true, email: true, name: true } }) : null;
  if (!result.ok || !owner) {
    await recordThrottledEvent({ ...byAddress, email: owner?.email ?? "" }, now);
    return { outcome: "wrong" };
  }
  return { outcome: "ok", user: owner };
}
