"use client";

import { ChevronLeft, ChevronRight, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";

/** The width of the fade at either end of the row (w-12). */
const FADE_WIDTH = 48;

export interface NavTab {
  href: string;
  label: string;
  icon?: LucideIcon;
  /** Also current when the path starts with this (e.g. every folder of the Files tab). */
  matchPrefix?: string;
  count?: number;
  /** Whether it is the current tab, for tabs told apart by their query rather than their path. */
  current?: boolean;
}

/**
 * Page-level tabs that are links (each view has its own URL); the current one is marked
 * aria-current. When they do not fit (a phone), the row scrolls sideways, the current tab is
 * scrolled into view (on load and whenever the row's width changes), and a fade on the side that
 * has more says that more tabs exist.
 */
export function NavTabs({ label, tabs }: { label: string; tabs: NavTab[] }) {
  const pathname = usePathname();
  const scroller = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  useEffect(() => {
    const nav = scroller.current;
    if (!nav) return;
    const measure = () => setMore({ before: nav.scrollLeft > 1, after: nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1 });
    // The current tab in view, clear of the fades; only the row scrolls (the page stays where it is).
    const reveal = () => {
      const tab = nav.querySelector<HTMLElement>('[aria-current="page"]');
      if (!tab) return;
      const start = tab.getBoundingClientRect().left - nav.getBoundingClientRect().left + nav.scrollLeft;
      const end = start + tab.offsetWidth;
      if (start - FADE_WIDTH < nav.scrollLeft) nav.scrollLeft = start - FADE_WIDTH;
      else if (end + FADE_WIDTH > nav.scrollLeft + nav.clientWidth) nav.scrollLeft = end + FADE_WIDTH - nav.clientWidth;
    };
    nav.addEventListener("scroll", measure, { passive: true });
    // Also when the row's width changes (a window resized or turned): the current tab may have
    // been pushed out of view.
    const resize = new ResizeObserver(() => {
      reveal();
      measure();
    });
    resize.observe(nav);
    return () => {
      nav.removeEventListener("scroll", measure);
      resize.disconnect();
    };
  }, [pathname]);

  const fade = "pointer-events-none absolute inset-y-0 flex w-12 items-center from-surface from-40% to-transparent px-1 text-fg-subtle";
  return (
    <div className="relative -mx-4">
      <nav ref={scroller} aria-label={label} className="overflow-x-auto border-b border-line px-4" data-testid="nav-tabs">
        <ul className="flex gap-1">
          {tabs.map(({ href, label: tabLabel, icon: Icon, matchPrefix, count, current: told }) => {
            const current = told ?? (pathname === href || (matchPrefix !== undefined && pathname.startsWith(matchPrefix)));
            return (
              <li key={href}>
                <Link
                  href={href}
                  aria-current={current ? "page" : undefined}
                  className={`inline-flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-ink ${current ? "border-brand text-brand-ink" : "border-transparent text-fg-muted hover:border-line-strong hover:text-fg"}`}
                >
                  {Icon ? <Icon aria-hidden size={16} /> : null}
                  {tabLabel}
                  {count !== undefined ? <span className="rounded-full bg-muted px-1.5 text-xs text-fg-2">{count}</span> : null}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {more.before ? (
        <div aria-hidden className={`${fade} left-0 justify-start bg-gradient-to-r`} data-testid="tabs-more-before">
          <ChevronLeft size={16} />
        </div>
      ) : null}
      {more.after ? (
        <div aria-hidden className={`${fade} right-0 justify-end bg-gradient-to-l`} data-testid="tabs-more-after">
          <ChevronRight size={16} />
        </div>
      ) : null}
    </div>
  );
}
