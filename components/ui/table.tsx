import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

/**
 * A data table in a card. Below 640 px its rows become stacked blocks (the column headings stay for
 * screen readers), so nothing, a row's actions least of all, is off to the side: each cell a line
 * of its own, unless a cell says it shares the line (`Td`'s `stacked`); a table that keeps
 * its key columns on a phone instead (hiding the others with `hidden sm:table-cell`) says
 * `phone="fit"`. Anything still too wide scrolls sideways inside the card rather than widening the
 * page. `caption` names it for screen readers (visually hidden unless `showCaption`). The wrapper
 * is positioned so that visually hidden (absolutely positioned) text in cells stays inside it, and
 * is a named, focusable region so a keyboard can scroll it when it overflows (WCAG 2.1.1).
 */
export function Table({
  caption,
  children,
  showCaption = false,
  fixed = false,
  phone = "stack",
}: {
  caption: string;
  children: ReactNode;
  showCaption?: boolean;
  /**
   * Columns as wide as their header cells say (`w-…` classes), the rest to the columns without
   * one: the table is exactly as wide as its card, and long text is cut short in its cell instead
   * of widening the table past the row's actions.
   */
  fixed?: boolean;
  phone?: "stack" | "fit";
}) {
  const stack =
    phone === "stack"
      ? "max-sm:block max-sm:[&>caption]:block max-sm:[&_tbody]:block max-sm:[&_td]:block max-sm:[&_td]:basis-full max-sm:[&_td]:py-1 max-sm:[&_td]:text-left max-sm:[&_td]:[overflow-wrap:anywhere] max-sm:[&_tr]:flex max-sm:[&_tr]:flex-wrap max-sm:[&_tr]:items-start max-sm:[&_tr]:py-2 max-sm:[&>thead]:sr-only"
      : "";
  return (
    <div
      role="region"
      aria-label={caption}
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-line bg-surface focus-visible:outline-2 focus-visible:outline-brand-ink"
    >
      <table className={`divide-y divide-line text-sm ${fixed ? "w-full table-fixed" : "min-w-full"} ${stack}`}>
        <caption className={showCaption ? "px-4 py-2 text-left font-medium" : "sr-only"}>{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Th({ className = "", ...props }: ThHTMLAttributes<HTMLTableCellElement>) {
  return <th scope="col" className={`bg-subtle px-4 py-2 text-left text-xs font-semibold tracking-wide text-fg-muted uppercase ${className}`} {...props} />;
}

/**
 * Where a cell goes in a stacked row (a phone): by default a line of its own; "inline" shares the
 * line with the cells after it at its own width, "fill" shares it and takes the room they leave,
 * "end" sits at the end of the line (a row's actions beside its details).
 */
const STACKED = {
  inline: "max-sm:basis-auto! max-sm:pr-0",
  fill: "max-sm:min-w-0 max-sm:grow max-sm:basis-0!",
  end: "max-sm:ml-auto max-sm:basis-auto!",
} as const;

export function Td({ className = "", stacked, ...props }: TdHTMLAttributes<HTMLTableCellElement> & { stacked?: keyof typeof STACKED }) {
  return <td className={`px-4 py-2 align-middle text-fg ${stacked ? STACKED[stacked] : ""} ${className}`} {...props} />;
}
