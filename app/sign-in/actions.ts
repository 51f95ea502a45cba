"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import type { PasswordSignInState } from "@/components/auth/password-sign-in-form";
import { signIn, signOut } from "@/lib/auth";
import { safeReturnPath } from "@/lib/auth/safe-return";

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
      redirectTo: callbackUrl,
    });
  } catch (e) {
    // signIn redirects by throwing on success; only Auth.js's own errors are failed sign-ins.
    const reasons = ["throttled", "second_factor", "second_factor_wrong"];
    const reason = e instanceof CredentialsSignin && reasons.includes(e.code) ? e.code : "credentials";
    if (e instanceof AuthError) return { reason, email: String(formData.get("email") ?? "").slice(0, 320) };
    throw e;
  }
  return {};
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
