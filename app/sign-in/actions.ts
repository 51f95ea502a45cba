"use server";

import { AuthError, CredentialsSignin } from "next-auth";
import { redirect } from "next/navigation";
import { signIn, signOut } from "@/lib/auth";
import { safeReturnPath } from "@/lib/auth/safe-return";

function back(formData: FormData): string {
  return safeReturnPath(formData.get("callbackUrl"));
}

export async function signInWithPassword(formData: FormData): Promise<void> {
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
    if (e instanceof AuthError) redirect(`/sign-in?error=${reason}&callbackUrl=${encodeURIComponent(callbackUrl)}`);
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
