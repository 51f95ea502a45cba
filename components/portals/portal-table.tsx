import { UserRound } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ROW_LINK } from "@/components/ui/row-link";
import { Table, Td, Th } from "@/components/ui/table";
import { portalPath } from "@/lib/links";
import type { PortalListRow } from "@/lib/portals/search-portals";
import { Time } from "@/components/ui/time";
import { SelectAllPortals } from "./portal-selection";

const responsibleName = (r: { name: string | null; email: string }) => r.name ?? r.email;

/**
 * One page of portals: state, tags, task counts, the next due date, the responsible member, guests and last activity per
 * row. With `selectForm`, each row has a checkbox posted as `portal_ids` with that form (bulk
 * actions), and the header one that ticks the whole page.
 */
export function PortalTable({ orgId, rows, caption, selectForm }: { orgId: string; rows: PortalListRow[]; caption: string; selectForm?: string }) {
  // Overdue dates stand out (a server component: "now" is the time of the page).
  const now = new Date();
  return (
    <Table phone="fit" caption={caption}>
      <thead>
        <tr>
          {selectForm ? (
            <Th className="w-8">
              <SelectAllPortals />
            </Th>
          ) : null}
          <Th>Name</Th>
          <Th className="hidden md:table-cell">Workflow state</Th>
          <Th className="hidden lg:table-cell">Tags</Th>
          <Th className="text-right">Open / done tasks</Th>
          <Th className="hidden md:table-cell">Next due</Th>
          <Th className="hidden lg:table-cell">Responsible</Th>
          <Th className="hidden text-right sm:table-cell">Guests</Th>
          <Th className="hidden md:table-cell">Last activity</Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line-soft">
        {rows.map((p) => (
          <tr key={p.id} data-testid="portal-row">
            {selectForm ? (
              <Td>
                <input
                  type="checkbox"
                  form={selectForm}
                  name="portal_ids"
                  value={p.id}
                  aria-label={`Select ${p.name}`}
                  className="size-4 rounded border-line-strong"
                  data-testid="portal-select"
                />
              </Td>
            ) : null}
            <Td className="min-w-[10rem] break-words">
              <Link className={ROW_LINK} href={portalPath(orgId, p.id)}>
                {p.name}
              </Link>
              {p.archived ? (
                <Badge tone="warning" className="ml-2">
                  Archived
                </Badge>
              ) : null}
              {p.isTemplate ? (
                <Badge tone="info" className="ml-2">
                  Template
                </Badge>
              ) : null}
              {/* The columns a narrow screen drops, under the name. */}
              <span className="mt-1 flex flex-wrap gap-1 text-xs text-fg-muted lg:hidden">
                <span className="md:hidden">{p.workflowState ?? "No state"}</span>
                {p.responsible ? (
                  <span className="inline-flex items-center gap-0.5" data-testid="portal-responsible-inline">
                    <UserRound aria-hidden className="size-3" />
                    <span className="sr-only">Responsible: </span>
                    {responsibleName(p.responsible)}
                  </span>
                ) : null}
                {p.tags.map((t) => (
                  <Badge key={t}>{t}</Badge>
                ))}
              </span>
            </Td>
            <Td className="hidden md:table-cell" data-testid="portal-state">
              {p.workflowState ?? <span className="text-fg-subtle">None</span>}
            </Td>
            <Td className="hidden lg:table-cell">
              <span className="flex flex-wrap gap-1">
                {p.tags.map((t) => (
                  <Badge key={t}>{t}</Badge>
                ))}
              </span>
            </Td>
            <Td className="text-right whitespace-nowrap tabular-nums">
              {p.openTaskCount} / {p.doneTaskCount}
            </Td>
            <Td className="hidden whitespace-nowrap md:table-cell" data-testid="portal-next-due">
              {p.nextDueAt ? (
                <>
                  <Time value={p.nextDueAt} format="date" />
                  {p.nextDueAt < now ? <span className="ml-1.5 text-xs font-medium text-danger">Overdue</span> : null}
                </>
              ) : (
                <span className="text-fg-subtle">None</span>
              )}
            </Td>
            <Td className="hidden max-w-[12rem] truncate lg:table-cell" data-testid="portal-responsible">
              {p.responsible ? <span title={p.responsible.email}>{responsibleName(p.responsible)}</span> : <span className="text-fg-subtle">Nobody</span>}
            </Td>
            <Td className="hidden text-right tabular-nums sm:table-cell">{p.guestCount}</Td>
            <Td className="hidden whitespace-nowrap md:table-cell">
              {p.lastActivityAt ? <Time value={p.lastActivityAt} format="relative" /> : <span className="text-fg-subtle">None yet</span>}
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
