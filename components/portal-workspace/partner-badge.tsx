"use client";

import { AlertTriangle, CheckCircle2, KeyRound, Link2Off, Loader2, SearchX } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect } from "react";

/** The portal's `partner_link` as the domain returns it (lib/portals/to-response.ts). */
export interface PartnerLinkView {
  status: "verifying" | "linked" | "not_found" | "credential_rejected" | "error" | "unlinked";
  customer_id: string;
  tenant_id?: string;
  display_name?: string;
  verified_at?: Date | string;
  error?: string;
}

const LOOK = {
  verifying: { tone: "bg-info-tint text-info", Icon: Loader2, label: "Verifying partner id" },
  linked: { tone: "bg-success-tint text-success-strong", Icon: CheckCircle2, label: "Linked" },
  not_found: { tone: "bg-warning-tint text-warning-strong", Icon: SearchX, label: "Unknown to the partner" },
  credential_rejected: { tone: "bg-danger-tint text-danger-strong", Icon: KeyRound, label: "Partner credentials rejected" },
  error: { tone: "bg-danger-tint text-danger-strong", Icon: AlertTriangle, label: "Partner check failed" },
  unlinked: { tone: "bg-track text-fg-2", Icon: Link2Off, label: "Not linked" },
} as const;

/** What to do about each state, for the badge's title and screen readers. */
const HELP: Partial<Record<PartnerLinkView["status"], string>> = {
  not_found: "Check the partner id in the portal's external ids.",
  credential_rejected: "An administrator can reconnect in Settings, Partner integration.",
  error: "It is checked again when the portal's partner id is saved.",
};

/**
 * The portal's link to the partner: status, and the customer's name once linked. While verifying
 * it refreshes the page every 2 seconds until the outcome is in. Renders nothing without a link.
 */
export function PartnerBadge({ link, pollMs = 2000 }: { link: PartnerLinkView | null; pollMs?: number }) {
  const router = useRouter();
  const verifying = link?.status === "verifying";
  useEffect(() => {
    if (!verifying) return;
    const timer = setInterval(() => router.refresh(), pollMs);
    return () => clearInterval(timer);
  }, [verifying, pollMs, router]);
  if (!link) return null;

  const { tone, Icon, label } = LOOK[link.status];
  const text = link.status === "linked" ? `Linked to ${link.display_name ?? link.customer_id}` : label;
  const detail = [`Partner customer ${link.customer_id}`, link.error, HELP[link.status]].filter(Boolean).join(". ");
  return (
    <span
      className={`inline-flex max-w-full items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium ${tone}`}
      data-testid="partner-badge"
      data-status={link.status}
      title={detail}
      role="status"
      aria-live="polite"
    >
      <Icon aria-hidden className={`h-3.5 w-3.5 shrink-0 ${verifying ? "animate-spin" : ""}`} />
      <span className="truncate">{text}</span>
      <span className="sr-only">. {detail}</span>
    </span>
  );
}
