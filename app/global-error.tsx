"use client";

import { ServerErrorMessage } from "@/components/server-error-message";
import "./globals.css";

/** An unexpected error in the root layout itself: this replaces it, so it brings its own document. */
export default function GlobalError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="en">
      <body className="min-h-screen">
        <ServerErrorMessage error={error} retry={retry} />
      </body>
    </html>
  );
}
