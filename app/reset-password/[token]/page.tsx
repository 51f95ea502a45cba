import type { Metadata } from "next";
import Link from "next/link";
import { ResetPasswordForm } from "@/components/auth/reset-password-form";
import { Card } from "@/components/ui/card";
import { MIN_PASSWORD_LENGTH } from "@/lib/auth/password";
import { isPasswordResetUsable } from "@/lib/auth/password-reset";
import { setNewPassword } from "./actions";

export const metadata: Metadata = { title: "Choose a new password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const usable = await isPasswordResetUsable(token);
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand-ink">Choose a new password</h1>
      <Card>{usable ? <ResetPasswordForm action={setNewPassword} token={token} minPasswordLength={MIN_PASSWORD_LENGTH} /> : <ExpiredLink />}</Card>
    </main>
  );
}

function ExpiredLink() {
  return (
    <div className="space-y-4 text-sm">
      <p role="alert">This password reset link has expired or was already used. Links work once, for 1 hour.</p>
      <p>
        <Link className="font-medium text-brand-ink underline" href="/sign-in/forgot">
          Send me a new link
        </Link>
      </p>
    </div>
  );
}
