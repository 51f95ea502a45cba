import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { currentUser } from "@/lib/auth/session";
import { safeReturnPath } from "@/lib/auth/safe-return";
import { PasskeyButton } from "@/components/auth/passkey-button";
import { signInWithMagicLink, signInWithPasskey, signInWithPassword, startPasskeySignInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

const MESSAGES: Record<string, string> = {
  credentials: "That email and password do not match an account.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  second_factor: "This account has two-factor authentication on: enter your password again with the code from your authenticator app (or a recovery code).",
  second_factor_wrong: "That code is not right. Enter your password again with the current code from your authenticator app (or an unused recovery code).",
  throttled: "Too many sign-in attempts. Wait a few minutes, then try again (or reset your password).",
  passkey: "That passkey did not sign you in. Use a passkey you added under Two-factor authentication, or sign in with your email and password.",
};

/** The second-factor messages when the account has a passkey (`factors` names what it has). */
const PASSKEY_MESSAGES: Record<string, string> = {
  second_factor: "This account has two-factor authentication on: enter your password again, then use your passkey",
  second_factor_wrong: "That passkey or code was not accepted. Enter your password again, then use your passkey",
};
const OR_CODE = " or enter the code from your authenticator app (or a recovery code).";

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  // The credentials callback posted to directly reports these as `code=<reason>`.
  const code = typeof params.code === "string" && params.code in MESSAGES ? params.code : null;
  const reason = code ?? params.error;
  const secondFactor = reason === "second_factor" || reason === "second_factor_wrong";
  // Without `factors` (the credentials callback posted to directly), the code, as before passkeys.
  const factors = typeof params.factors === "string" ? params.factors.split(",") : ["totp"];
  const askPasskey = secondFactor && factors.includes("passkey");
  const askCode = secondFactor && factors.includes("totp");
  const error =
    typeof reason !== "string"
      ? null
      : askPasskey
        ? PASSKEY_MESSAGES[reason] + (askCode ? "," + OR_CODE : ".")
        : (MESSAGES[reason] ?? "Sign-in failed. Try again.");

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand">Client Portals</h1>
      {error ? <Alert>{error}</Alert> : null}
      <Card title="Sign in">
        <form action={signInWithPassword} className="space-y-4">
          <input type="hidden" name="callbackUrl" value={callbackUrl} />
          <Input label="Email" id="email" name="email" type="email" autoComplete="email" required />
          <Input label="Password" id="password" name="password" type="password" autoComplete="current-password" required />
          {askPasskey ? <PasskeyButton start={startPasskeySignInAction} alone={false} label="Use your passkey" variant="primary" /> : null}
          {askCode ? <Input label="Authentication code" id="code" name="code" autoComplete="one-time-code" inputMode="text" required={!askPasskey} /> : null}
          {askPasskey && !askCode ? null : (
            <Button type="submit" className="w-full" variant={askPasskey ? "secondary" : "primary"}>
              {askPasskey ? "Sign in with the code" : "Sign in"}
            </Button>
          )}
        </form>
        <p className="mt-4 text-sm">
          <Link className="text-brand underline" href="/sign-in/forgot">
            Forgot password?
          </Link>
        </p>
      </Card>
      {secondFactor ? null : (
        <Card title="Or sign in with a passkey">
          <form action={signInWithPasskey}>
            <input type="hidden" name="callbackUrl" value={callbackUrl} />
            <PasskeyButton start={startPasskeySignInAction} alone label="Sign in with a passkey" />
          </form>
        </Card>
      )}
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
