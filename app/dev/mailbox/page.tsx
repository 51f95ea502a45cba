import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Card } from "@/components/ui/card";
import { listRecentEmails } from "@/lib/email/list-captured";
import { devMailboxEnabled } from "@/lib/email/dev-mailbox";

export const metadata: Metadata = { title: "Development mailbox" };
export const dynamic = "force-dynamic";

// Captured email (D29): what would have been sent, when no SMTP server is configured.
export default async function DevMailboxPage() {
  if (!devMailboxEnabled()) notFound();
  const emails = await listRecentEmails();
  return (
    <main className="mx-auto max-w-4xl space-y-4 px-4 py-8">
      <h1 className="text-2xl font-semibold">Development mailbox</h1>
      {emails.length === 0 ? <p className="text-fg-muted">No email yet.</p> : null}
      {emails.map((m) => (
        <Card key={m.id} title={m.subject}>
          <p className="mb-2 text-xs text-fg-subtle">
            To {m.to} · {m.template} · {m.status} · {m.createdAt.toISOString()}
          </p>
          <pre className="whitespace-pre-wrap break-all text-sm" data-testid="mail-text">
            {m.text}
          </pre>
        </Card>
      ))}
    </main>
  );
}
