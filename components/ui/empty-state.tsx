import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";

/** What an empty list says: what is missing and what to do about it (the action). */
export function EmptyState({ icon: Icon, title, children, action }: { icon?: LucideIcon; title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="flex flex-col items-center rounded-lg border border-dashed border-line-strong bg-surface px-6 py-10 text-center">
      {Icon ? <Icon aria-hidden className="mb-3 text-fg-faint" size={32} /> : null}
      <p className="font-medium text-fg">{title}</p>
      {children ? <div className="mt-1 max-w-md text-sm text-fg-muted">{children}</div> : null}
      {action ? <div className="mt-4">{action}</div> : null}
    </div>
  );
}
