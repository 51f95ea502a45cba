"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import type { PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import type { PasswordSignInState } from "@/components/auth/password-sign-in-form";
import { SecondFactorSignin, signIn, signOut } from "@/lib/auth";
import { startPasskeySignIn } from "@/lib/auth/passkeys";
import { safeReturnPath, signInPath } from "@/lib/auth/safe-return";

function back(formData: FormData): string {
  return safeReturnPath(formData.get("callbackUrl"));
}

/**
 * Email and password (and the second factor's code when asked). A refused sign-in answers with the
 * reason and the email as typed, so the form keeps it; success redirects (signIn throws it).
 */
export async function signInWithPassword(_state: PasswordSignInState, formData: FormData): Promise<PasswordSignInState> {
  const callbackUrl = back(formData);
  try {
    await signIn("credentials", {
      email: formData.get("email"),
      password: formData.get("password"),
      code: formData.get("code") ?? "",
      passkey: formData.get("passkey") ?? "",
      redirectTo: callbackUrl,
    });
  } catch (e) {
    // signIn redirects by throwing on success; only Auth.js's own errors are failed sign-ins.
    const reasons = ["throttled", "second_factor", "second_factor_wrong"];
    const reason = e instanceof CredentialsSignin && reasons.includes(e.code) ? e.code : "credentials";
    if (e instanceof AuthError) {
      // The factors the account has, so that the form offers those (a passkey, a code, or both).
      const factors = e instanceof SecondFactorSignin ? { factors: e.methods } : {};
      return { reason, email: String(formData.get("email") ?? "").slice(0, 320), ...factors };
    }
    throw e;
  }
  return {};
}

/**
 * The options for the browser's passkey dialog at sign-in (no form; called by the passkey
 * buttons). `alone`: signing in with the passkey only, which then must verify the user.
 */
export async function startPasskeySignInAction(alone: boolean): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return startPasskeySignIn({ alone: alone === true });
}

/** "Sign in with a passkey": the passkey alone, no email or password. */
export async function signInWithPasskey(formData: FormData): Promise<void> {
  const callbackUrl = back(formData);
  try {
    await signIn("passkey", { passkey: formData.get("passkey"), redirectTo: callbackUrl });
  } catch (e) {
    const reason = e instanceof CredentialsSignin && e.code === "throttled" ? "throttled" : "passkey";
    if (e instanceof AuthError) redirect(signInPath(callbackUrl, { error: reason }));
    throw e;
  }
}

export async function signInWithMagicLink(formData: FormData): Promise<void> {
  const callbackUrl = back(formData);
  try {
    await signIn("email", { email: formData.get("email"), redirectTo: callbackUrl });
  } catch (e) {
    // An unknown address is refused by the signIn callback; answer as for a known one so the page
    // does not tell who has an account.
    if (e instanceof AuthError) redirect("/sign-in/check-email");
    throw e;
  }
}

export async function signOutAction(): Promise<void> {
  await signOut({ redirectTo: "/sign-in" });
}
