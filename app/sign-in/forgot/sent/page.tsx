import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "Check your email" };

export default function ResetSentPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand-ink">Check your email</h1>
      <Card>
        <p className="text-sm text-fg-2">
          If that address has an account, a link to choose a new password is on its way. The link works once and expires in 1 hour.
        </p>
        <p className="mt-4 text-sm">
          <Link className="text-brand-ink underline" href="/sign-in">
            Back to sign in
          </Link>
        </p>
      </Card>
    </main>
  );
}
