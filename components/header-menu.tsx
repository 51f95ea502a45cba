"use client";

import { ChevronDown } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState, type ReactNode } from "react";

export interface HeaderLink {
  href: string;
  label: string;
}

/**
 * A header entry that opens a short list of links (a disclosure: the button says whether the list
 * is open and which element it controls). From the md breakpoint up the list drops below the
 * button; in the phone's stacked menu it opens in place. It closes on navigation, with Escape
 * (focus back on the button), and on a click outside it.
 */
export function HeaderMenu({ id, label, links, testId }: { id: string; label: ReactNode; links: HeaderLink[]; testId?: string }) {
  const pathname = usePathname();
  // The page the list was opened on: navigating elsewhere closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpenOn(null);
      button.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpenOn(null);
    };
    window.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    return () => {
      window.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
    };
  }, [open]);

  return (
    <div ref={root} className="relative" data-testid={testId}>
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpenOn(open ? null : pathname)}
        className="inline-flex items-center gap-1 rounded-md text-sm text-fg-2 hover:text-brand-ink focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-ink"
      >
        {label}
        <ChevronDown aria-hidden size={16} className={open ? "rotate-180" : ""} />
      </button>
      <ul
        id={id}
        hidden={!open}
        className="mt-2 space-y-1 border-l border-line pl-3 md:absolute md:right-0 md:z-40 md:min-w-56 md:space-y-0 md:rounded-md md:border md:bg-surface md:p-1 md:shadow-lg"
      >
        {links.map((l) => (
          <li key={l.href}>
            <Link
              href={l.href}
              aria-current={pathname === l.href ? "page" : undefined}
              onClick={() => setOpenOn(null)}
              className="block rounded px-2 py-1.5 text-sm text-fg-2 hover:bg-muted hover:text-brand-ink aria-[current=page]:font-medium aria-[current=page]:text-brand-ink"
            >
              {l.label}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
