import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

/**
 * Cursor pagination: links to the previous and next page (the caller builds their URLs, keeping
 * the list's filters in the query). A missing href shows the button disabled.
 */
export function Pagination({ previousHref, nextHref, summary }: { previousHref?: string | null; nextHref?: string | null; summary?: string }) {
  const disabled = `${buttonClasses("secondary", "sm")} pointer-events-none opacity-50`;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-4 py-3 text-sm">
      <span className="text-fg-muted">{summary}</span>
      <div className="flex gap-2">
        {previousHref ? (
          <Link className={buttonClasses("secondary", "sm")} href={previousHref} rel="prev">
            <ChevronLeft aria-hidden size={16} /> Previous
          </Link>
        ) : (
          <span aria-disabled="true" className={disabled}>
            <ChevronLeft aria-hidden size={16} /> Previous
          </span>
        )}
        {nextHref ? (
          <Link className={buttonClasses("secondary", "sm")} href={nextHref} rel="next">
            Next <ChevronRight aria-hidden size={16} />
          </Link>
        ) : (
          <span aria-disabled="true" className={disabled}>
            Next <ChevronRight aria-hidden size={16} />
          </span>
        )}
      </div>
    </nav>
  );
}
