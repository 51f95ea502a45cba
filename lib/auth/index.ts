import NextAuth from "next-auth";
import type { NextAuthConfig } from "next-auth";
import type { EmailConfig } from "next-auth/providers";
import { CredentialsSignin } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { PrismaAdapter } from "@auth/prisma-adapter";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { admitEmailRequest } from "@/lib/auth/throttle";
import { hasSecondFactor } from "@/lib/auth/two-factor";
import { attemptPasskeySignIn, attemptPasswordSignIn, type SecondFactorMethod } from "@/lib/auth/verify-credentials";
import { headers } from "next/headers";
import { checkSessionToken, endSessionOfToken, SESSION_MAX_AGE_SECONDS, type SessionClient } from "@/lib/auth/user-sessions";
import { clientIpOf } from "@/lib/security/client-ip";
import { sendEmail } from "@/lib/email/send-email";
import { magicLinkEmail } from "@/lib/email/templates/magic-link";

// Members and guests sign in with email and password (and a second factor when they have one),
// with a passkey alone, or with an emailed magic link. Sessions are JWTs (Credentials sign-in
// requires it) naming a server-side UserSession row, checked on every request
// (lib/auth/user-sessions.ts); the adapter keeps users and magic-link tokens.

/** The browser and address of the request being served (none outside a request). */
async function requestClient(): Promise<SessionClient> {
  try {
    const h = await headers();
    return { userAgent: h.get("user-agent") ?? "", ip: clientIpOf(h) };
  } catch {
    return { userAgent: "", ip: "" };
  }
}

const magicLink: EmailConfig = {
  id: "email",
  type: "email",
  name: "Email",
  maxAge: 24 * 60 * 60,
  normalizeIdentifier: (identifier) => identifier.trim().toLowerCase(),
  async sendVerificationRequest({ identifier, url }) {
    const { host } = new URL(url);
    await sendEmail({ to: identifier, template: "magic-link", ...magicLinkEmail({ url, host }) });
  },
};

/** Too many attempts for the account or the address: the sign-in page says to wait (`code=throttled`). */
class ThrottledSignin extends CredentialsSignin {
  code = "throttled";
}

/**
 * The password was right; the account has two-factor on and the code or passkey was missing or
 * wrong. `methods` are the factors the account has (the sign-in page offers those).
 */
export class SecondFactorSignin extends CredentialsSignin {
  constructor(
    readonly wrong: boolean,
    readonly methods: SecondFactorMethod[],
  ) {
    super();
    this.code = wrong ? "second_factor_wrong" : "second_factor";
  }
}

async function authorize(input: Partial<Record<string, unknown>>) {
  const attempt = await attemptPasswordSignIn(input, { ip: (await requestClient()).ip });
  if (attempt.outcome === "throttled") throw new ThrottledSignin();
  if (attempt.outcome === "second_factor" || attempt.outcome === "wrong_second_factor") {
    throw new SecondFactorSignin(attempt.outcome === "wrong_second_factor", attempt.methods);
  }
  return attempt.outcome === "ok" ? attempt.user : null;
}

async function authorizePasskey(input: Partial<Record<string, unknown>>) {
  const attempt = await attemptPasskeySignIn(input, { ip: (await requestClient()).ip });
  if (attempt.outcome === "throttled") throw new ThrottledSignin();
  return attempt.outcome === "ok" ? attempt.user : null;
}

function config(): NextAuthConfig {
  return {
    // The adapter is typed against `@prisma/client`; Prisma 7's generated client is the same shape.
    adapter: PrismaAdapter(db as unknown as Parameters<typeof PrismaAdapter>[0]),
    secret: env().AUTH_SECRET,
    trustHost: true,
    // A wrong password is the user's mistake, not a server error worth a stack trace.
    logger: {
      error(error) {
        if (!(error instanceof CredentialsSignin)) console.error(error);
      },
    },
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/sign-in", verifyRequest: "/sign-in/check-email", error: "/sign-in" },
    providers: [
      Credentials({
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" }, code: { label: "Code", type: "text" } },
        authorize,
      }),
      // "Sign in with a passkey": the passkey alone (discoverable, user verified), no email typed.
      Credentials({ id: "passkey", name: "Passkey", credentials: { passkey: { label: "Passkey", type: "text" } }, authorize: authorizePasskey }),
      magicLink,
    ],
    events: {
      // Signing out ends this browser's session on the server, not only its cookie.
      async signOut(message) {
        if ("token" in message) await endSessionOfToken(message.token as { sub?: string; sid?: unknown } | null);
      },
    },
    callbacks: {
      // Accounts are created by invitations and by organizations, never by asking for a link.
      // Asking for a link is throttled per address and client (lib/auth/throttle.ts), unknown
      // addresses alike; a refusal reads as "check your email" either way.
      async signIn({ user, account, email: emailStep }) {
        if (account?.provider !== "email") return true;
        const email = user.email?.trim().toLowerCase();
        if (!email) return false;
        if (emailStep?.verificationRequest && !(await admitEmailRequest({ kind: "magic-link", email, ip: (await requestClient()).ip }))) return false;
        // An account with two-factor on (TOTP or a passkey) signs in with its password and a
        // second factor, or its passkey, not by link.
        const known = await db.user.findUnique({ where: { email }, select: { id: true } });
        return known !== null && !(await hasSecondFactor(known.id));
      },
      // Sign-in starts a UserSession; later requests stand only while it is not revoked.
      jwt({ token, user }) {
        return checkSessionToken(token, user?.id, requestClient);
      },
      session({ session, token }) {
        if (token.sub) session.user.id = token.sub;
        if (typeof token.sid === "string") session.sessionId = token.sid;
        return session;
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => config());
