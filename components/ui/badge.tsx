import type { ReactNode } from "react";

export type BadgeTone = "neutral" | "brand" | "success" | "warning" | "danger" | "info";

const TONES: Record<BadgeTone, string> = {
  neutral: "bg-muted text-fg-2 ring-line",
  brand: "bg-brand-wash text-brand-ink ring-brand/20",
  success: "bg-success-soft text-success-strong ring-success-line",
  warning: "bg-warning-soft text-warning ring-warning-line",
  danger: "bg-danger-soft text-danger-strong ring-danger-line",
  info: "bg-info-soft text-info ring-info-line",
};

/** A short status or label; text colours meet WCAG AA contrast on their background. */
export function Badge({ tone = "neutral", children, className = "" }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${TONES[tone]} ${className}`}>
      {children}
    </span>
  );
}
