import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PasswordSignInForm } from "@/components/auth/password-sign-in-form";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { currentUser } from "@/lib/auth/session";
import { safeReturnPath } from "@/lib/auth/safe-return";
import { signInWithMagicLink, signInWithPassword } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

const MESSAGES: Record<string, string> = {
  credentials: "That email and password do not match an account.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  second_factor: "This account has two-factor authentication on: enter your password again with the code from your authenticator app (or a recovery code).",
  second_factor_wrong: "That code is not right. Enter your password again with the current code from your authenticator app (or an unused recovery code).",
  throttled: "Too many sign-in attempts. Wait a few minutes, then try again (or reset your password).",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  // The credentials callback posted to directly reports these as `code=<reason>`.
  const code = typeof params.code === "string" && params.code in MESSAGES ? params.code : null;
  const reason = code ?? params.error;
  const askCode = reason === "second_factor" || reason === "second_factor_wrong";
  const error = typeof reason === "string" ? (MESSAGES[reason] ?? "Sign-in failed. Try again.") : null;

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand">Client Portals</h1>
      {error ? <Alert>{error}</Alert> : null}
      <Card title="Sign in">
        <PasswordSignInForm action={signInWithPassword} callbackUrl={callbackUrl} askCode={askCode} messages={MESSAGES} />
        <p className="mt-4 text-sm">
          <Link className="text-brand underline" href="/sign-in/forgot">
            Forgot password?
          </Link>
        </p>
      </Card>
      <Card title="Or get a sign-in link by email">
        <form action={signInWithMagicLink} className="space-y-4">
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <Input label="Email for a sign-in link" id="magic-email" name="email" type="email" autoComplete="email" required />
          <Button type="submit" variant="secondary" className="w-full">
            Email me a link
          </Button>
        </form>
      </Card>
    </main>
  );
}
