import type { Metadata } from "next";
import { ApiReference } from "@/components/api-reference";

// Public API reference (no sign-in): Scalar renders the live /api/v1/openapi.json in the browser,
// so this page no longer reads the API layer itself.
export const metadata: Metadata = { title: "API reference" };

export default function ApiReferencePage() {
  return (
    <main className="min-h-screen">
      <h1 className="sr-only">Client Portals API reference</h1>
      <ApiReference />
    </main>
  );
}
