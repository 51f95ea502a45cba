import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "@/components/ui/card";

export const metadata: Metadata = { title: "Check your email" };

export default function CheckEmailPage() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <Card title="Check your email">
        <p className="text-sm text-slate-700">
          If that address has an account, a sign-in link is on its way. The link works once and expires in 24 hours.
        </p>
        <p className="mt-4 text-sm">
          <Link className="text-brand underline" href="/sign-in">Back to sign in</Link>
        </p>
      </Card>
    </main>
  );
}
