import { z } from "zod";
import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/auth/password";
import { checkThrottle, clearAccountThrottle, recordThrottledEvent } from "@/lib/auth/throttle";
import { checkSecondFactor, hasTwoFactor } from "@/lib/auth/two-factor";

const credentials = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(1).max(200),
  /** The second factor (TOTP or recovery code), for users with two-factor on. */
  code: z.string().max(100).optional(),
});

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
  /** The password is right and the user has two-factor on: ask for the code. */
  | { outcome: "second_factor" }
  | { outcome: "wrong_second_factor" };

/**
 * One password sign-in attempt from `ip`: refused unheard while the account or the address is
 * delayed or locked (lib/auth/throttle.ts); otherwise the password is checked, a wrong one
 * counted against both, a right one clearing the account's count. Never says which part was
 * wrong, and answers an unknown address exactly as a known one. With two-factor on, a right
 * password also needs a right code (lib/auth/two-factor.ts).
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
  if (await hasTwoFactor(user.id)) {
    const code = parsed.data.code?.trim();
    if (!code) return { outcome: "second_factor" };
    // A wrong code counts against the account like a wrong password: 6 digits cannot be guessed
    // 10 times per 15 minutes.
    if (!(await checkSecondFactor({ userId: user.id, code, now }))) {
      await recordThrottledEvent(subject, now);
      return { outcome: "wrong_second_factor" };
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
