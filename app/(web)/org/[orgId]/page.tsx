import { FolderPlus, SearchX } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CreatePortalDialog } from "@/components/portals/create-portal-dialog";
import { PortalFilters } from "@/components/portals/portal-filters";
import { PortalSelectionActions } from "@/components/portals/portal-selection";
import { PortalTable } from "@/components/portals/portal-table";
import { BulkRequestDialog } from "@/components/requests/bulk-request-dialog";
import { BULK_FORM_ID } from "@/components/requests/form-ids";
import { EmptyState } from "@/components/ui/empty-state";
import { NavTabs } from "@/components/ui/nav-tabs";
import { Pagination } from "@/components/ui/pagination";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { getOrgProfile } from "@/lib/organization/profile";
import { PortalSearchSchema, searchPortals, type PortalSearch } from "@/lib/portals/search-portals";
import { listRequestDocuments } from "@/lib/requests/request-documents";
import { listWorkflowStates } from "@/lib/workflow/list-workflow-states";
import { createPortalAction, updatePortalsAction } from "./actions";
import { createBulkRequestAction } from "./requests/actions";

export const metadata: Metadata = { title: "Portals" };

type Query = Record<string, string | string[] | undefined>;

/** The list's URL with `search` changed: only non-default values, so links stay short. */
function listHref(orgId: string, search: PortalSearch, change: Partial<Record<keyof PortalSearch, string | undefined>>): string {
  const params = new URLSearchParams();
  const merged: Record<string, string | undefined> = {
    q: search.q,
    tag: search.tag,
    state: search.state,
    status: search.status === "active" ? undefined : search.status,
    templates: search.templates ? "1" : undefined,
    sort: search.sort === "name" ? undefined : search.sort,
    ...change,
  };
  for (const [k, v] of Object.entries(merged)) if (v) params.set(k, v);
  const qs = params.toString();
  return `/org/${orgId}${qs ? `?${qs}` : ""}`;
}

/** The list's filters in words, for "every portal matching …"; null when none is set. */
function filterLabel(search: PortalSearch, states: { id: string; name: string }[]): string | null {
  const parts = [
    search.q ? `“${search.q}”` : null,
    search.tag ? `tag “${search.tag}”` : null,
    search.state === "none" ? "no workflow state" : search.state ? `state “${states.find((s) => s.id === search.state)?.name ?? "?"}”` : null,
    search.status === "active" ? null : search.status === "archived" ? "archived" : "active or archived",
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : null;
}

export default async function PortalListPage({ params, searchParams }: { params: Promise<{ orgId: string }>; searchParams: Promise<Query> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId);
  if (!viewer) notFound();
  const raw = await searchParams;
  const search = PortalSearchSchema.parse(Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])));
  const staff = mayOrg(viewer, "createPortal");
  const bulk = staff && !search.templates;
  const [page, states, profile, templates, documents] = await Promise.all([
    searchPortals({ viewer, search }),
    staff ? listWorkflowStates({ viewer }) : Promise.resolve([]),
    getOrgProfile({ viewer }),
    staff ? searchPortals({ viewer, search: PortalSearchSchema.parse({ templates: "1", sort: "name" }), pageSize: 200 }) : null,
    bulk ? listRequestDocuments({ viewer }) : Promise.resolve([]),
  ]);
  const filtered = Boolean(search.q || search.tag || search.state || search.status !== "active");
  const what = search.templates ? "templates" : "portals";

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold">{search.templates ? "Templates" : "Portals"}</h1>
        {staff ? (
          <div className="flex flex-wrap items-center gap-2">
            {bulk ? (
              <>
                <Link className="text-sm text-brand-ink underline" href={`/org/${orgId}/requests`}>
                  Bulk requests
                </Link>
                <BulkRequestDialog
                  action={createBulkRequestAction.bind(null, orgId)}
                  documents={documents}
                  filter={{ q: search.q, tag: search.tag, state: search.state, status: search.status }}
                  filterLabel={filterLabel(search, states)}
                />
              </>
            ) : null}
            <CreatePortalDialog
              action={createPortalAction.bind(null, orgId)}
              templates={(templates?.items ?? []).map((t) => ({ id: t.id, name: t.name }))}
              templatesAllowed={profile.plan !== "free"}
              plan={profile.plan}
            />
          </div>
        ) : null}
      </div>
      {staff ? (
        <NavTabs
          label="Portals or templates"
          tabs={[
            { href: `/org/${orgId}`, label: "Portals", current: !search.templates },
            { href: `/org/${orgId}?templates=1`, label: "Templates", current: search.templates },
          ]}
        />
      ) : null}
      {staff ? <PortalFilters action={`/org/${orgId}`} search={search} states={states} /> : null}
      {page.items.length === 0 ? (
        filtered ? (
          <EmptyState
            icon={SearchX}
            title={`No ${what} match these filters`}
            action={
              <Link className="text-brand-ink underline" href={listHref(orgId, search, { q: undefined, tag: undefined, state: undefined, status: undefined })}>
                Clear the search and filters
              </Link>
            }
          >
            Try another name or tag, or look at archived ones too.
          </EmptyState>
        ) : (
          <EmptyState icon={FolderPlus} title={`No ${what} yet`}>
            {staff
              ? search.templates
                ? "Create a portal with “Save as a template”, add the folders every client needs, then start new portals from it."
                : "Create a portal with “New portal”, then invite your client as a guest."
              : "You have not been given access to any portal here yet."}
          </EmptyState>
        )
      ) : (
        <>
          {bulk ? <PortalSelectionActions action={updatePortalsAction.bind(null, orgId)} states={states} status={search.status} /> : null}
          <PortalTable orgId={orgId} rows={page.items} caption={search.templates ? "Templates" : "Portals"} selectForm={bulk ? BULK_FORM_ID : undefined} />
          <Pagination
            summary={`${page.items.length} of ${page.total.toLocaleString("en-US")} ${page.total === 1 ? what.replace(/s$/, "") : what}`}
            previousHref={page.previous ? listHref(orgId, search, { before: page.previous }) : null}
            nextHref={page.next ? listHref(orgId, search, { after: page.next }) : null}
          />
        </>
      )}
    </div>
  );
}
