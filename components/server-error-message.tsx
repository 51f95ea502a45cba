"use client";

import Link from "next/link";
import { RotateCw } from "lucide-react";
import { Button } from "@/components/ui/button";

/**
 * The body of the error pages (app/error.tsx, app/global-error.tsx): what happened in words a
 * client understands, that nothing they entered was kept half-way, a way to try again and a way
 * home. Server errors reach the browser without their message (Next.js keeps it on the server);
 * the digest is what the server logged with the error, for support to find it.
 */
export function ServerErrorMessage({ error, retry }: { error: unknown; retry: () => void }) {
  const digest = error instanceof Error && "digest" in error && typeof error.digest === "string" ? error.digest : null;
  return (
    <main className="mx-auto max-w-md px-4 py-24 text-center" data-testid="server-error">
      <title>Something went wrong · Client Portals</title>
      <h1 className="text-xl font-semibold">This page could not be loaded</h1>
      <p className="mt-2 text-fg-muted">Something went wrong on our side, often only for a moment. Try again in a minute.</p>
      <div className="mt-6 flex flex-wrap items-center justify-center gap-3">
        <Button onClick={() => retry()}>
          <RotateCw aria-hidden size={16} />
          Try again
        </Button>
        <Link className="text-brand-ink underline" href="/">
          Go home
        </Link>
      </div>
      {digest && <p className="mt-6 text-xs text-fg-subtle">If it keeps happening, give your firm or our support this reference: {digest}</p>}
    </main>
  );
}
