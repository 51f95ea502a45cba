"use client";

import { useEffect, useRef } from "react";
import { CopyButton } from "@/components/oauth/copy-button";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";

/** A client secret, shown once: it exists only in the state of the form that received it. */
export function SecretReveal({ clientId, secret, title, onDone }: { clientId?: string; secret: string; title: string; onDone: () => void }) {
  const box = useRef<HTMLDivElement>(null);
  // The box may appear above the viewport (the form that made it is further down): bring it into
  // view and move focus to it, so that keyboard and screen-reader users land on the secret too.
  useEffect(() => {
    box.current?.scrollIntoView({ block: "center" });
    box.current?.focus({ preventScroll: true });
  }, [secret]);
  return (
    <div
      ref={box}
      tabIndex={-1}
      role="region"
      aria-labelledby={`reveal-${secret.slice(-8)}`}
      className="space-y-3 rounded-md border border-warning-line bg-warning-soft p-4 outline-none focus-visible:ring-2 focus-visible:ring-warning-edge"
      data-testid="secret-reveal"
    >
      <p className="font-medium" id={`reveal-${secret.slice(-8)}`}>
        {title}
      </p>
      {clientId ? <CopyableValue label="Client ID" value={clientId} testId="new-client-id" /> : null}
      <CopyableValue label="Client secret" value={secret} testId="new-client-secret" />
      <Alert tone="info">Copy the secret now and keep it safe. It won&apos;t be shown again.</Alert>
      <Button type="button" variant="secondary" onClick={onDone}>
        I have copied it
      </Button>
    </div>
  );
}

function CopyableValue({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="text-sm">
      <span className="block text-fg-muted">{label}</span>
      <span className="flex flex-wrap items-center gap-2">
        <code className="break-all rounded bg-surface px-2 py-1" data-testid={testId}>
          {value}
        </code>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
      </span>
    </div>
  );
}
