"use client";

import { CopyButton } from "@/components/oauth/copy-button";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** A client secret, shown once: it exists only in the state of the form that received it. */
export function SecretReveal({ clientId, secret, title, onDone }: { clientId?: string; secret: string; title: string; onDone: () => void }) {
  return (
    <div className="space-y-3 rounded-md border border-amber-300 bg-amber-50 p-4" data-testid="secret-reveal">
      <p className="font-medium">{title}</p>
      {clientId ? (
        <div className="text-sm">
          <span className="block text-slate-600">Client ID</span>
          <span className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-white px-2 py-1" data-testid="new-client-id">{clientId}</code>
            <CopyButton value={clientId} label="Copy client ID" />
          </span>
        </div>
      ) : null}
      <div className="text-sm">
        <span className="block text-slate-600">Client secret</span>
        <span className="flex flex-wrap items-center gap-2">
          <code className="break-all rounded bg-white px-2 py-1" data-testid="new-client-secret">{secret}</code>
          <CopyButton value={secret} label="Copy client secret" />
        </span>
      </div>
      <Alert tone="info">Copy the secret now and keep it safe. It won&apos;t be shown again.</Alert>
      <Button type="button" variant="secondary" onClick={onDone}>I have copied it</Button>
    </div>
  );
}
