"use client";

import { AlertTriangle, CheckCircle2, Loader2, RotateCw } from "lucide-react";
import { useRouter } from "next/navigation";
import { useActionState, useEffect } from "react";
import { Button } from "@/components/ui/button";
import type { FormAction, FormState } from "@/lib/web/form-state";

/** A file's push to the partner (lib/partner/push.ts listPartnerPushStatuses). */
export interface PartnerPushView {
  status: "sending" | "sent" | "failed";
  attempts: number;
  lastError: string | null;
}

/**
 * A file row's partner status: sending (the page refreshes every 3 s until it settles), sent, or
 * failed with a Resend button. `resend` is resendPartnerPushAction bound to the organization.
 */
export function PartnerPushStatus({
  push,
  portalId,
  fileId,
  fileName,
  resend,
  pollMs = 3000,
}: {
  push: PartnerPushView | null | undefined;
  portalId: string;
  fileId: string;
  fileName: string;
  resend: FormAction<FormState & { done?: number }>;
  pollMs?: number;
}) {
  const router = useRouter();
  const [state, action, pending] = useActionState(resend, {});
  const sending = push?.status === "sending";
  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(() => router.refresh(), pollMs);
    return () => clearInterval(timer);
  }, [sending, pollMs, router]);
  if (!push) return null;

  if (push.status === "sending") {
    return (
      <span className="inline-flex items-center gap-1 text-xs text-info" data-testid="partner-push-status" data-status="sending" role="status">
        <Loader2 aria-hidden className="h-3.5 w-3.5 animate-spin" />
        Sending to partner{push.attempts > 0 ? ` (attempt ${push.attempts + 1})` : ""}
      </span>
    );
  }
  if (push.status === "sent") {
    return (
      <span className="inline-flex items-center gap-1 text-xs text-success-strong" data-testid="partner-push-status" data-status="sent">
        <CheckCircle2 aria-hidden className="h-3.5 w-3.5" />
        Sent to partner
      </span>
    );
  }
  return (
    <form action={action} className="inline-flex flex-wrap items-center gap-2" data-testid="partner-push-status" data-status="failed">
      <input type="hidden" name="portalId" value={portalId} />
      <input type="hidden" name="fileId" value={fileId} />
      <span className="inline-flex items-center gap-1 text-xs text-danger-strong" title={push.lastError ?? undefined}>
        <AlertTriangle aria-hidden className="h-3.5 w-3.5" />
        Not sent to partner after {push.attempts} attempts
      </span>
      <Button type="submit" variant="secondary" className="px-2 py-1 text-xs" disabled={pending} aria-label={`Resend ${fileName} to the partner`}>
        <RotateCw aria-hidden className="mr-1 h-3.5 w-3.5" />
        {pending ? "Resending…" : "Resend"}
      </Button>
      {state.error ? (
        <span role="alert" className="text-xs text-danger">
          {state.error}
        </span>
      ) : null}
    </form>
  );
}
