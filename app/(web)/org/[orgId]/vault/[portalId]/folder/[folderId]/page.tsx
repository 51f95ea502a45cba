import type { Metadata } from "next";
import { Folder } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { Card } from "@/components/ui/card";
import { findWebViewer } from "@/lib/access/web-viewer";
import { isAppError } from "@/lib/errors";
import { listFolder } from "@/lib/files/list-folder";
import { isUuid } from "@/lib/ids";
import { getPortal } from "@/lib/portals/get-portal";
import { portalPath } from "@/lib/portals/links";
import { listPortalTasks } from "@/lib/tasks/list-portal-tasks";

type Params = { orgId: string; portalId: string; folderId: string };

/** What the viewer may not see (lib/access) is a missing page here. */
async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (e) {
    if (isAppError(e) && (e.code === "not_found" || e.code === "forbidden")) notFound();
    throw e;
  }
}

/** The viewer and the portal they may see, once per request for both the title and the page; else not found. */
const loadPortal = cache(async (orgId: string, portalId: string, folderId: string) => {
  const viewer = await findWebViewer(orgId, portalPath(orgId, portalId, folderId === "main" ? null : folderId));
  if (!viewer) notFound();
  const portal = await orNotFound(getPortal({ viewer, portalId }));
  return { viewer, portal };
});

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { orgId, portalId, folderId } = await params;
  const { portal } = await loadPortal(orgId, portalId, folderId);
  return { title: portal.name };
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export default async function PortalFolderPage({ params }: { params: Promise<Params> }) {
  const { orgId, portalId, folderId } = await params;
  const { viewer, portal } = await loadPortal(orgId, portalId, folderId);
  const parent = folderId === "main" ? null : folderId;
  if (parent !== null && !isUuid(parent)) notFound();
  const [entries, { items: tasks }] = await orNotFound(
    Promise.all([listFolder({ viewer, portalId, folderId: parent }), listPortalTasks({ viewer, portalId })]),
  );

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <h1 className="text-2xl font-semibold" data-testid="portal-name">
          {portal.name}
        </h1>
        <span className="text-sm text-slate-600">
          {portal.workflowState?.name ?? "No workflow state"}
          {portal.archived ? " · Archived" : ""}
        </span>
      </div>
      <Card title="Files">
        {parent ? (
          <p className="mb-3 text-sm">
            <Link className="text-brand underline" href={portalPath(orgId, portalId)}>
              Back to the portal root
            </Link>
          </p>
        ) : null}
        {entries.length === 0 ? (
          <p className="text-sm text-slate-600">This folder is empty.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {entries.map((e) => (
              <li key={e.id} className="flex justify-between py-2">
                {e.isFolder ? (
                  <Link className="inline-flex items-center gap-2 font-medium text-brand hover:underline" href={portalPath(orgId, portalId, e.id)}>
                    <Folder aria-hidden size={16} />
                    {e.name}
                  </Link>
                ) : (
                  <span>{e.name}</span>
                )}
                <span className="text-slate-500">{e.isFolder ? "Folder" : formatSize(e.size)}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card title="Tasks">
        {tasks.length === 0 ? (
          <p className="text-sm text-slate-600">No tasks.</p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm">
            {tasks.map((t) => (
              <li key={t.id} className="flex justify-between py-2">
                <span>{t.title}</span>
                <span className={t.status === "Done" ? "text-emerald-700" : "text-amber-700"}>
                  {t.status}
                  {t.dueDate ? ` · due ${t.dueDate.toISOString().slice(0, 10)}` : ""}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
