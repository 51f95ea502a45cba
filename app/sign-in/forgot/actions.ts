"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { AppError } from "@/lib/errors";
import { clientIpOf } from "@/lib/security/client-ip";

/** Emails a reset link when the address has an account; the next page reads the same either way. */
export async function askForPasswordReset(formData: FormData): Promise<void> {
  try {
    await requestPasswordReset({ email: String(formData.get("email") ?? ""), ip: clientIpOf(await headers()) });
  } catch (e) {
    if (e instanceof AppError) redirect("/sign-in/forgot?error=email");
    throw e;
  }
  redirect("/sign-in/forgot/sent");
}
