"use server";

import { z } from "zod";
import type { ResetPasswordState } from "@/components/auth/reset-password-form";
import { signIn } from "@/lib/auth";
import { resetPassword } from "@/lib/auth/password-reset";
import { formAction } from "@/lib/web/org-action";

/** Sets the new password (ending every other session), then signs the user in and goes home. */
export const setNewPassword = formAction(
  { input: z.object({ token: z.string(), password: z.string(), confirm: z.string() }), fields: ["password", "confirm"] },
  async ({ token, password, confirm }): Promise<ResetPasswordState> => {
    if (password !== confirm) return { fieldErrors: { confirm: "The two passwords differ" } };
    const { email } = await resetPassword({ token, password });
    // signIn redirects by throwing.
    await signIn("credentials", { email, password, redirectTo: "/" });
    return {};
  },
);
