"use client";

import { ServerErrorMessage } from "@/components/server-error-message";

/** An unexpected error while rendering a page (e.g. the database not reachable): inside the root layout. */
export default function ErrorPage({ error, retry }: { error: unknown; retry: () => void }) {
  return <ServerErrorMessage error={error} retry={retry} />;
}
