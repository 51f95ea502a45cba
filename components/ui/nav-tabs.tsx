"use client";

import { ChevronLeft, ChevronRight, type LucideIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useRef, useState } from "react";

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
 * scrolled into view, and a fade on the side that has more says that more tabs exist.
 */
export function NavTabs({ label, tabs }: { label: string; tabs: NavTab[] }) {
  const pathname = usePathname();
  const scroller = useRef<HTMLElement>(null);
  const [more, setMore] = useState({ before: false, after: false });

  useEffect(() => {
    const nav = scroller.current;
    if (!nav) return;
    const measure = () => setMore({ before: nav.scrollLeft > 1, after: nav.scrollLeft + nav.clientWidth < nav.scrollWidth - 1 });
    nav.querySelector<HTMLElement>('[aria-current="page"]')?.scrollIntoView({ block: "nearest", inline: "nearest" });
    measure();
    nav.addEventListener("scroll", measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(nav);
    return () => {
      nav.removeEventListener("scroll", measure);
      resize.disconnect();
    };
  }, [pathname]);

  const fade = "pointer-events-none absolute inset-y-0 flex w-12 items-center from-white from-40% to-transparent px-1 text-slate-500";
  return (
    <div className="relative -mx-4">
      <nav ref={scroller} aria-label={label} className="overflow-x-auto border-b border-slate-200 px-4" data-testid="nav-tabs">
        <ul className="flex gap-1">
          {tabs.map(({ href, label: tabLabel, icon: Icon, matchPrefix, count, current: told }) => {
            const current = told ?? (pathname === href || (matchPrefix !== undefined && pathname.startsWith(matchPrefix)));
            return (
              <li key={href}>
                <Link
                  href={href}
                  aria-current={current ? "page" : undefined}
                  className={`inline-flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand ${current ? "border-brand text-brand" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"}`}
                >
                  {Icon ? <Icon aria-hidden size={16} /> : null}
                  {tabLabel}
                  {count !== undefined ? <span className="rounded-full bg-slate-100 px-1.5 text-xs text-slate-700">{count}</span> : null}
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
