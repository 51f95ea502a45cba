"use client";

import { Menu, X } from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import { HeaderMenu, type HeaderLink } from "./header-menu";
import { MAIN_ID } from "./main-id";

/** A link of the header, or a group of links behind one entry (a menu). */
export type HeaderItem = HeaderLink | { id: string; label: string; links: HeaderLink[] };

/**
 * The signed-in header (FirmHeader and ClientHeader). From the md breakpoint up, one row; below
 * it, the brand and a Menu button that opens the same navigation and account controls as a stacked
 * panel, so nothing is ever pushed off a phone's screen. The panel closes on navigation and with
 * Escape.
 */
export function AppHeader({
  kind,
  home,
  items,
  children,
  logo,
}: {
  /** Whose header it is (a data attribute, for the tests that check each is the same everywhere). */
  kind: "firm" | "client";
  home: string;
  items: HeaderItem[];
  children: ReactNode;
  /** The organization's logo (a same-origin path) and its name, shown before the product's name. */
  logo?: { src: string; orgName: string } | null;
}) {
  const pathname = usePathname();
  // The page the menu was opened on: navigating elsewhere closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpenOn(null);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);

  return (
    <header className="border-b border-line bg-surface" data-testid="app-header" data-header={kind}>
      {/* The first stop of the keyboard: past the header to the page's own content (MAIN_ID). */}
      <a
        href={`#${MAIN_ID}`}
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-surface focus:px-3 focus:py-2 focus:text-sm focus:font-medium focus:text-brand-ink focus:shadow-md focus:outline-2 focus:outline-brand-ink"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-3 px-4 py-3">
        <div className="flex min-w-0 items-center gap-3">
          {logo ? (
            // eslint-disable-next-line @next/next/no-img-element -- our own route (lib/organization/logo.ts), cached forever; next/image adds nothing
            <img src={logo.src} alt={`${logo.orgName} logo`} className="h-8 w-auto max-w-40 object-contain" data-testid="org-logo" />
          ) : null}
          <Link href={home} className="text-lg font-semibold text-brand-ink">
            Client Portals
          </Link>
        </div>
        <button
          type="button"
          className="inline-flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium text-fg-2 hover:bg-muted md:hidden"
          aria-expanded={open}
          aria-controls="app-menu"
          onClick={() => setOpenOn(open ? null : pathname)}
        >
          {open ? <X aria-hidden size={18} /> : <Menu aria-hidden size={18} />}
          Menu
        </button>
        <div
          id="app-menu"
          className={`${open ? "flex" : "hidden"} w-full flex-col gap-4 border-t border-line-soft pt-3 md:flex md:w-auto md:flex-1 md:flex-row md:items-center md:justify-between md:border-0 md:pt-0`}
        >
          {items.length > 0 ? (
            <nav aria-label="Main" className="flex flex-col gap-3 text-sm md:flex-row md:items-center md:gap-4">
              {items.map((item) =>
                "links" in item ? (
                  <HeaderMenu key={item.id} id={item.id} label={item.label} links={item.links} testId={item.id} />
                ) : (
                  <Link
                    key={item.href}
                    className="text-fg-2 hover:text-brand-ink aria-[current=page]:font-medium aria-[current=page]:text-brand-ink"
                    aria-current={pathname === item.href ? "page" : undefined}
                    href={item.href}
                  >
                    {item.label}
                  </Link>
                ),
              )}
            </nav>
          ) : (
            <span className="hidden md:block" />
          )}
          <div className="flex flex-col items-start gap-3 md:flex-row md:items-center md:gap-4">{children}</div>
        </div>
      </div>
    </header>
  );
}
