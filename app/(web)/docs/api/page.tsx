import type { Metadata } from "next";
import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import { ApiReference } from "@/components/api-reference";

// Public API reference (no sign-in): Scalar renders the live /api/v1/openapi.json in the browser,
// so this page no longer reads the API layer itself. A bar above it leads back to the app.
export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  return (
    <>
      <header className="flex items-center gap-4 border-b border-line bg-surface px-4 py-2 text-sm">
        <Link
          href="/"
          className="inline-flex items-center gap-1 font-medium text-brand-ink hover:underline focus-visible:outline-2 focus-visible:outline-brand-ink"
        >
          <ArrowLeft aria-hidden size={16} />
          Back to Client Portals
        </Link>
      </header>
      <main className="min-h-screen">
        <h1 className="sr-only">Client Portals API reference</h1>
        <ApiReference />
      </main>
    </>
  );
}
