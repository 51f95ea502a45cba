import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/**
 * A data table that scrolls sideways inside its card on a narrow screen instead of widening the
 * page. `caption` names it for screen readers (visually hidden unless `showCaption`). The wrapper
 * is positioned so that visually hidden (absolutely positioned) text in cells stays inside it, and
 * is a named, focusable region so a keyboard can scroll it when it overflows (WCAG 2.1.1).
 */
export function Table({ caption, children, showCaption = false }: { caption: string; children: ReactNode; showCaption?: boolean }) {
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-brand"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className={showCaption ? "px-4 py-2 text-left font-medium" : "sr-only"}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`bg-slate-50 px-4 py-2 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase ${className}`} {...props} />;
}

export function Td({ className = "", ...props }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-4 py-2 align-middle text-slate-800 ${className}`} {...props} />;
}
