"use client";

import type { LucideIcon } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";

export interface NavTab {
  href: string;
  label: string;
  icon?: LucideIcon;
  /** Also current when the path starts with this (e.g. every folder of the Files tab). */
  matchPrefix?: string;
  count?: number;
}

/** Page-level tabs that are links (each view has its own URL); the current one is marked aria-current. */
export function NavTabs({ label, tabs }: { label: string; tabs: NavTab[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label={label} className="-mx-4 overflow-x-auto border-b border-slate-200 px-4">
      <ul className="flex gap-1">
        {tabs.map(({ href, label: tabLabel, icon: Icon, matchPrefix, count }) => {
          const current = pathname === href || (matchPrefix !== undefined && pathname.startsWith(matchPrefix));
          return (
            <li key={href}>
              <Link
                href={href}
                aria-current={current ? "page" : undefined}
                className={`inline-flex items-center gap-2 border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-brand ${current ? "border-brand text-brand" : "border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900"}`}
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
  );
}
