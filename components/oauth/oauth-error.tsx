import Link from "next/link";
import { Alert } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";

/** The dead end of an authorization that cannot go back to the application. */
export function OAuthError({ message }: { message: string }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4">
      <h1 className="text-center text-2xl font-semibold text-brand-ink">Client Portals</h1>
      <Card title="Authorization failed">
        <div className="space-y-4">
          <Alert>{message}</Alert>
          <p className="text-sm text-fg-muted">You have not been sent back to the application. Close this page, or return to it and try again.</p>
          <Link className="inline-block text-sm text-brand-ink underline" href="/">
            Go to Client Portals
          </Link>
        </div>
      </Card>
    </main>
  );
}
