import { History } from "lucide-react";
import Link from "next/link";
import { describeAudit } from "@/components/portal-workspace/describe-audit";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, Td, Th } from "@/components/ui/table";
import { HISTORY_KINDS, listPortalAudit, type HistoryKind } from "@/lib/audit/list-audit";
import { decodeCursor, encodeCursor } from "@/lib/pagination";
import { portalViewPath } from "@/lib/links";
import { loadMemberPortal, tabMetadata } from "../load-portal";
import { orNotFound } from "@/lib/web/or-not-found";
import { Time } from "@/components/ui/time";

export const generateMetadata = tabMetadata("History");

type Params = { orgId: string; portalId: string };
type Search = { kind?: string; cursor?: string };

const KIND_LABELS: Record<HistoryKind, string> = {
  portal: "Portal",
  file: "Files",
  folder: "Folders",
  task: "Tasks",
  guest: "Guests",
  partner_link: "Partner link",
};
const PAGE = 50;

export default async function HistoryPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }) {
  const { orgId, portalId } = await params;
  const search = await searchParams;
  const { viewer } = await loadMemberPortal(orgId, portalId);
  const kind = HISTORY_KINDS.find((k) => k === search.kind);
  const cursor = search.cursor ? (decodeCursor(search.cursor) ?? undefined) : undefined;
  const { items, next } = await orNotFound(listPortalAudit({ viewer, portalId, kind, cursor, limit: PAGE }));
  const base = portalViewPath(orgId, portalId, "history");
  const href = (q: { kind?: string; cursor?: string }) => {
    const query = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => Boolean(e[1]))).toString();
    return query ? `${base}?${query}` : base;
  };

  return (
    <section aria-labelledby="history-heading" className="space-y-4">
      <h2 id="history-heading" className="text-lg font-semibold">
        History
      </h2>
      <nav aria-label="Filter by kind" className="flex flex-wrap gap-2">
        {[undefined, ...HISTORY_KINDS].map((k) => (
          <Link
            key={k ?? "all"}
            href={href({ kind: k })}
            aria-current={k === kind ? "page" : undefined}
            className={`rounded-full border px-3 py-1 text-sm focus-visible:outline-2 focus-visible:outline-brand-ink ${k === kind ? "border-brand bg-brand text-white" : "border-line-strong bg-surface text-fg-2 hover:bg-subtle"}`}
          >
            {k ? KIND_LABELS[k] : "All"}
          </Link>
        ))}
      </nav>
      {items.length === 0 ? (
        <EmptyState icon={History} title={kind ? `No ${KIND_LABELS[kind].toLowerCase()} history` : "No history yet"}>
          {kind ? "Choose All to see every change to this portal." : "Changes to this portal, its files, tasks and guests show here as they happen."}
        </EmptyState>
      ) : (
        <>
          {/* What was done is the key column: on a phone, when and who go on a line above it. */}
          <Table fixed phone="fit" caption="Portal history, newest first">
            <thead>
              <tr>
                <Th className="hidden w-44 sm:table-cell">When</Th>
                <Th className="hidden w-48 sm:table-cell">Who</Th>
                <Th>What</Th>
              </tr>
            </thead>
            <tbody className="divide-y divide-line-soft">
              {items.map((r) => (
                <tr key={r.id} data-testid="history-row" data-action={r.action}>
                  <Td className="hidden text-fg-muted sm:table-cell">
                    <Time value={r.createdAt} format="relative" />
                  </Td>
                  <Td className="hidden break-words sm:table-cell">
                    <Who actor={r.actor} client={r.client} />
                  </Td>
                  <Td className="break-words">
                    <p className="mb-1 flex flex-wrap items-center gap-x-2 text-xs text-fg-muted sm:hidden">
                      <Time value={r.createdAt} format="relative" />
                      <Who actor={r.actor} client={r.client} />
                    </p>
                    {describeAudit(r.action, r.metadata)}
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          <Pagination
            summary="Newest first"
            previousHref={cursor ? href({ kind }) : null}
            nextHref={next ? href({ kind, cursor: encodeCursor(next) }) : null}
          />
        </>
      )}
    </section>
  );
}

/** Who made a change: a person (and the app they used, if any) or the system. */
function Who({ actor, client }: { actor: { name: string | null; email: string } | null; client: { name: string } | null }) {
  return (
    <span>
      {actor ? <span>{actor.name ?? actor.email}</span> : <span className="text-fg-muted">System</span>}
      {client ? (
        <Badge tone="info" className="ml-1">
          via {client.name}
        </Badge>
      ) : null}
    </span>
  );
}
