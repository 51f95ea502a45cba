import type { Metadata } from "next";
import { Inbox } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { MarkAllSeen } from "@/components/inbox/mark-all-seen";
import { InboxList, type InboxRow } from "@/components/inbox/inbox-list";
import { buttonClasses } from "@/components/ui/button";
import { CONTROL_HEIGHT } from "@/components/ui/field";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Select } from "@/components/ui/select";
import { findWebViewer } from "@/lib/web/web-viewer";
import { INBOX_FILTER_KINDS, InboxFilterSchema, inboxUnreadCount, listInbox, listInboxAssignees, type InboxFilter } from "@/lib/inbox/list-inbox";
import { getPortal } from "@/lib/portals/get-portal";
import { orNotFound } from "@/lib/web/or-not-found";
import { markAllSeenAction, openInboxItemAction } from "./actions";

export const metadata: Metadata = { title: "Inbox" };

type Search = Record<string, string | string[] | undefined>;

const KIND_LABELS: Record<(typeof INBOX_FILTER_KINDS)[number], string> = {
  upload: "Uploads",
  answer: "Answers",
  form: "Forms",
  signed: "Signed documents",
  done: "Marked done",
  message: "Messages",
  overdue: "Overdue requests",
};

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The firm's inbox: everything clients did across the organization's portals that needs a look,
 * newest first, with overdue requests; filters in the address (portal, kind, whose, unread only),
 * pages by cursor. Members and admins; guests have none (not found).
 */
export default async function InboxPage({ params, searchParams }: { params: Promise<{ orgId: string }>; searchParams: Promise<Search> }) {
  const { orgId } = await params;
  const raw = await searchParams;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/inbox`);
  if (!viewer || viewer.role === "guest") notFound();
  const query = {
    portal: one(raw.portal),
    kind: one(raw.kind),
    assignee: one(raw.assignee),
    mine: one(raw.mine),
    unread: one(raw.unread),
    cursor: one(raw.cursor),
  };
  const parsed = InboxFilterSchema.safeParse(query);
  const filter: Partial<InboxFilter> = parsed.success ? parsed.data : {};
  const problem = parsed.success ? null : parsed.error.issues[0]!.message;
  const [{ items, next }, unread, members, portal] = await Promise.all([
    listInbox({ viewer, filter }),
    inboxUnreadCount({ viewer }),
    listInboxAssignees({ viewer }),
    filter.portal ? orNotFound(getPortal({ viewer, portalId: filter.portal })) : null,
  ]);

  const base = `/org/${orgId}/inbox`;
  const href = (change: Record<string, string | undefined>) => {
    const q = { ...query, cursor: undefined, ...change };
    const s = new URLSearchParams(Object.entries(q).filter((e): e is [string, string] => Boolean(e[1]))).toString();
    return s ? `${base}?${s}` : base;
  };
  const rows: InboxRow[] = items.map((i) => ({
    id: i.id,
    kind: i.kind,
    portalId: i.portalId,
    portalName: i.portalName,
    title: i.title,
    at: i.at.toISOString(),
    actor: i.actor,
    seen: i.seen,
    href: i.href,
    portalHref: href({ portal: i.portalId }),
  }));
  const filtered = Boolean(filter.portal || filter.kind || filter.assignee || filter.mine || filter.unread);

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold">Inbox</h1>
          <p className="text-sm text-fg-muted" data-testid="inbox-unread">
            {unread === 0 ? "Everything is seen." : `${unread >= 100 ? "99+" : unread} new since you last looked.`} Use ↑ ↓ (or j k) to move, Enter to open.
          </p>
        </div>
        {unread > 0 ? <MarkAllSeen action={markAllSeenAction.bind(null, orgId)} /> : null}
      </div>

      {/* One tight group: the selects as wide as their choices need, the two switches side by side. */}
      <form
        method="get"
        action={base}
        className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-3 sm:flex-row sm:flex-wrap sm:items-end"
        data-testid="inbox-filters"
      >
        {filter.portal ? <input type="hidden" name="portal" value={filter.portal} /> : null}
        <div className="sm:w-48">
          <Select
            label="Kind"
            id="inbox-kind"
            name="kind"
            defaultValue={filter.kind ?? ""}
            placeholder="Everything"
            options={INBOX_FILTER_KINDS.map((k) => ({ value: k, label: KIND_LABELS[k] }))}
          />
        </div>
        <div className="sm:w-56">
          <Select
            label="Whose"
            id="inbox-assignee"
            name="assignee"
            defaultValue={filter.assignee ?? ""}
            placeholder="Anyone's"
            options={members.map((m) => ({ value: m.id, label: m.name }))}
          />
        </div>
        <div className={`flex items-center gap-4 ${CONTROL_HEIGHT}`}>
          <label className="flex items-center gap-2 text-sm text-fg">
            <input type="checkbox" name="mine" value="1" defaultChecked={filter.mine} className="size-4 accent-brand" /> Mine only
          </label>
          <label className="flex items-center gap-2 text-sm text-fg">
            <input type="checkbox" name="unread" value="1" defaultChecked={filter.unread} className="size-4 accent-brand" /> Unread only
          </label>
        </div>
        <button type="submit" className={buttonClasses("secondary", "md")}>
          Apply filters
        </button>
      </form>

      {problem ? <Alert>{problem}</Alert> : null}
      {portal || filtered ? (
        <p className="flex flex-wrap items-center gap-2 text-sm text-fg-2">
          {portal ? (
            <>
              Only <strong>{portal.name}</strong> ·
            </>
          ) : null}
          <Link href={base} className="font-medium text-brand-ink underline">
            Show everything
          </Link>
        </p>
      ) : null}

      {rows.length === 0 ? (
        <EmptyState icon={Inbox} title={filtered ? "Nothing matches these filters" : "Nothing from clients yet"}>
          {filtered
            ? "Change or clear the filters to see more."
            : "Uploads, answers, forms, signatures and messages from your clients appear here, newest first, with requests that are overdue."}
        </EmptyState>
      ) : (
        <InboxList rows={rows} open={openInboxItemAction.bind(null, orgId)} />
      )}
      {filter.cursor || next ? (
        <Pagination
          previousHref={filter.cursor ? href({}) : null}
          nextHref={next ? href({ cursor: next }) : null}
          summary={filter.cursor ? "Older items" : undefined}
        />
      ) : null}
    </div>
  );
}
