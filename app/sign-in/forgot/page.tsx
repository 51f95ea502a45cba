import type { Metadata } from "next";
import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { askForPasswordReset } from "./actions";

export const metadata: Metadata = { title: "Forgot password" };

export default async function ForgotPasswordPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const error = params.error === "email" ? "Enter the email address you sign in with, for example name@example.com." : null;
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand-ink">Forgot your password?</h1>
      {error ? <Alert>{error}</Alert> : null}
      <Card title="Get a link to choose a new password">
        <form action={askForPasswordReset} className="space-y-4">
          <Input label="Email" id="email" name="email" type="email" autoComplete="email" required />
          <Button type="submit" className="w-full">
            Email me a reset link
          </Button>
        </form>
        <p className="mt-4 text-sm">
          <Link className="text-brand-ink underline" href="/sign-in">
            Back to sign in
          </Link>
        </p>
      </Card>
    </main>
  );
}
