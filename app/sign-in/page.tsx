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
import { PasskeyButton } from "@/components/auth/passkey-button";
import { isSignInReason, signInMessage } from "@/components/auth/sign-in-messages";
import { signInWithMagicLink, signInWithPasskey, signInWithPassword, startPasskeySignInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeReturnPath(params.callbackUrl);
  if (await currentUser()) redirect(callbackUrl);
  // The credentials callback posted to directly reports these as `code=<reason>`.
  const code = typeof params.code === "string" && isSignInReason(params.code) ? params.code : null;
  const reason = code ?? (typeof params.error === "string" ? params.error : undefined);
  // Without `factors` (the credentials callback posted to directly), the code.
  const factors = typeof params.factors === "string" ? params.factors.split(",") : undefined;
  const error = reason ? signInMessage(reason, factors) : null;

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand-ink">Client Portals</h1>
      {error ? <Alert>{error}</Alert> : null}
      <PasswordSignInForm
        action={signInWithPassword}
        startPasskey={startPasskeySignInAction}
        callbackUrl={callbackUrl}
        initial={{ reason, factors }}
        footer={
          <p className="mt-4 text-sm">
            <Link className="text-brand-ink underline" href="/sign-in/forgot">
              Forgot password?
            </Link>
          </p>
        }
        alternative={
          <Card title="Or sign in with a passkey">
            <form action={signInWithPasskey}>
              <input type="hidden" name="callbackUrl" value={callbackUrl} />
              <PasskeyButton start={startPasskeySignInAction} alone label="Sign in with a passkey" />
            </form>
          </Card>
        }
      />
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
