import type { Metadata } from "next";
import { ArrowRight, Building2, CheckCircle2, Inbox } from "lucide-react";
import Link from "next/link";
import { ACTION_LABEL, DueDate } from "@/components/guest-view/parts";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { requireUser } from "@/lib/auth/session";
import { listGuestHome } from "@/lib/guests/guest-view";
import { GUEST_HOME_PATH, guestFilePath, guestPortalPath } from "@/lib/links";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Your portals" };

/** Every portal the client belongs to (all firms): what is to do first, by due date, then each portal and its latest files. */
export default async function GuestHomePage() {
  const user = await requireUser(GUEST_HOME_PATH);
  const portals = await listGuestHome(user.id);
  const todo = portals
    .flatMap((p) => p.openTasks.map((t) => ({ ...t, orgId: p.orgId, portalName: p.portalName, orgName: p.orgName })))
    .sort((a, b) => (a.dueDate?.getTime() ?? Infinity) - (b.dueDate?.getTime() ?? Infinity));

  if (portals.length === 0)
    return (
      <EmptyState icon={Inbox} title="You have no portals yet">
        When a firm invites you to a portal, open the link in their email to join it. Then it appears here.
      </EmptyState>
    );

  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold">Hello{user.name ? `, ${user.name}` : ""}</h1>

      <section aria-labelledby="todo-heading" className="space-y-3">
        <h2 id="todo-heading" className="text-lg font-semibold">
          To do {todo.length > 0 ? <Badge tone="warning">{todo.length}</Badge> : null}
        </h2>
        {todo.length === 0 ? (
          <EmptyState icon={CheckCircle2} title="You are all caught up">
            Nothing is waiting for you. New requests appear here, and you get an email about them.
          </EmptyState>
        ) : (
          <ul className="divide-y divide-line-soft rounded-lg border border-line bg-surface">
            {todo.map((t) => (
              <li key={t.id} data-testid="home-task">
                <Link
                  href={guestPortalPath(t.orgId, t.portalId)}
                  className="flex items-center justify-between gap-3 px-4 py-3 hover:bg-subtle focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-ink"
                >
                  <span className="min-w-0">
                    <span className="block font-medium text-fg">{t.title}</span>
                    <span className="block text-xs text-fg-muted">
                      {ACTION_LABEL[t.actionType]} · {t.portalName} · {t.orgName}
                    </span>
                    <DueDate date={t.dueDate} />
                  </span>
                  <ArrowRight aria-hidden className="size-5 shrink-0 text-fg-faint" />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="portals-heading" className="space-y-3">
        <h2 id="portals-heading" className="text-lg font-semibold">
          Your portals
        </h2>
        <ul className="grid gap-3 sm:grid-cols-2">
          {portals.map((p) => (
            <li key={p.portalId} data-testid="home-portal" className="rounded-lg border border-line bg-surface p-4">
              <Link href={guestPortalPath(p.orgId, p.portalId)} className="group block focus-visible:outline-2 focus-visible:outline-brand-ink">
                <span className="flex items-center gap-1 text-xs text-fg-muted">
                  <Building2 aria-hidden className="size-3.5" /> {p.orgName}
                </span>
                <span className="block text-base font-semibold text-brand-ink group-hover:underline">{p.portalName}</span>
              </Link>
              <p className="mt-1 text-sm text-fg-2">{p.openTasks.length === 0 ? "Nothing to do" : `${p.openTasks.length} to do`}</p>
              {p.recentFiles.length > 0 ? (
                <div className="mt-3">
                  <h3 className="text-xs font-semibold tracking-wide text-fg-muted uppercase">Latest files</h3>
                  <ul className="mt-1 space-y-1 text-sm">
                    {p.recentFiles.map((f) => (
                      <li key={f.id} className="flex justify-between gap-2">
                        <Link href={guestFilePath(p.orgId, p.portalId, f.id)} className="truncate text-brand-ink hover:underline" title={f.name}>
                          {f.name}
                        </Link>
                        <Time value={f.registeredAt} format="relative" className="shrink-0 text-xs text-fg-muted" />
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
