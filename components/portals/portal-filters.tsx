import { Search } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { PortalSearch } from "@/lib/portals/search-portals";
import { PhoneFilters } from "./phone-filters";
import { SearchAsYouType } from "./search-as-you-type";

/**
 * The list's search and filters: a plain GET form, so every choice is in the URL (shareable, the
 * back button returns to the previous one) and works before any script has loaded; the name
 * search also applies as the member types. Portals and templates are the list's two tabs; the
 * form keeps the one it is on. From 1024 px the fields and buttons are one row, so the first
 * portals show on a laptop's first screen; on a phone all but the search fold behind a button.
 */
export function PortalFilters({ action, search, states }: { action: string; search: PortalSearch; states: { id: string; name: string }[] }) {
  return (
    <form
      method="get"
      action={action}
      role="search"
      aria-label="Portals"
      className="grid grid-cols-2 gap-3 rounded-lg border border-line bg-surface p-3 md:grid-cols-6 md:items-end lg:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))_auto]"
    >
      <PhoneFilters
        search={<SearchAsYouType label="Search by name" id="portal-q" name="q" defaultValue={search.q ?? ""} placeholder="e.g. Acme" />}
        active={[search.state, search.tag, search.status !== "active"].filter(Boolean).length}
      >
        <Select
          label="Workflow state"
          id="portal-state"
          name="state"
          defaultValue={search.state ?? ""}
          placeholder="Any state"
          options={[{ value: "none", label: "No state" }, ...states.map((s) => ({ value: s.id, label: s.name }))]}
        />
        <Input label="Tag" id="portal-tag" name="tag" defaultValue={search.tag ?? ""} placeholder="Exact tag" />
        <Select
          label="Status"
          id="portal-status"
          name="status"
          defaultValue={search.status}
          options={[
            { value: "active", label: "Active" },
            { value: "archived", label: "Archived" },
            { value: "all", label: "All" },
          ]}
        />
        <Select
          label="Sort by"
          id="portal-sort"
          name="sort"
          defaultValue={search.sort}
          options={[
            { value: "name", label: "Name (A-Z)" },
            { value: "created", label: "Newest first" },
            { value: "activity", label: "Last activity" },
          ]}
        />
        {search.templates ? <input type="hidden" name="templates" value="1" /> : null}
        <div className="col-span-2 flex justify-end gap-2 md:col-span-6 lg:col-span-1">
          <Link href={search.templates ? `${action}?templates=1` : action} className="self-center px-2 text-sm text-fg-2 underline hover:text-brand-ink">
            Clear
          </Link>
          <Button type="submit">
            <Search aria-hidden size={16} /> Apply
          </Button>
        </div>
      </PhoneFilters>
    </form>
  );
}
