"use client";

import { SlidersHorizontal } from "lucide-react";
import { useState, type ReactNode } from "react";
import { Button } from "@/components/ui/button";

/**
 * The portal list's filters on a phone: the name search stays in view, the other fields and the
 * form's buttons fold behind a "Filters" button (open from the start while any filter is set, which
 * the button counts), so the first screen shows portals. From 768 px the button is gone and the
 * fields are the form's own grid cells, always shown.
 */
export function PhoneFilters({ search, active, children }: { search: ReactNode; active: number; children: ReactNode }) {
  const [open, setOpen] = useState(active > 0);
  return (
    <>
      <div className="col-span-2 flex items-end gap-2 lg:col-span-1">
        <div className="min-w-0 flex-1">{search}</div>
        <Button
          type="button"
          variant="secondary"
          className="md:hidden"
          aria-expanded={open}
          aria-controls="portal-filter-fields"
          onClick={() => setOpen(!open)}
        >
          <SlidersHorizontal aria-hidden size={16} />
          Filters{active > 0 ? ` (${active})` : ""}
        </Button>
      </div>
      <div id="portal-filter-fields" className={`col-span-2 grid grid-cols-2 gap-3 md:contents ${open ? "" : "max-md:hidden"}`}>
        {children}
      </div>
    </>
  );
}
