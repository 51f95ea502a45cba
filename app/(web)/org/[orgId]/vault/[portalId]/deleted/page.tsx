import type { Metadata } from "next";
import { Trash2 } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { DeletedList } from "@/components/files/deleted-list";
import { EmptyState } from "@/components/ui/empty-state";
import { findWebViewer } from "@/lib/web/web-viewer";
import { listRecentlyDeleted } from "@/lib/files/recently-deleted";
import { isUuid } from "@/lib/ids";
import { portalPath, portalViewPath } from "@/lib/links";
import { fileActions } from "@/app/(web)/org/[orgId]/vault/[portalId]/bind-file-actions";
import { orNotFound } from "@/lib/web/or-not-found";

export const metadata: Metadata = { title: "Recently deleted" };

type Params = { orgId: string; portalId: string };

/** Files and folders deleted in the last 30 days, newest first, each with Restore (members). */
export default async function RecentlyDeletedPage({ params }: { params: Promise<Params> }) {
  const { orgId, portalId } = await params;
  if (!isUuid(orgId) || !isUuid(portalId)) notFound();
  const viewer = await findWebViewer(orgId, portalViewPath(orgId, portalId, "deleted"));
  if (!viewer) notFound();
  const entries = await orNotFound(listRecentlyDeleted({ viewer, portalId }));
  return (
    <div className="space-y-4" data-testid="recently-deleted">
      <div>
        <h2 className="text-lg font-semibold">Recently deleted</h2>
        <p className="text-sm text-fg-muted">
          Deleted files and folders stay here for 30 days, then they are removed for good. Restore puts them back where they were.
        </p>
      </div>
      {entries.length === 0 ? (
        <EmptyState
          icon={Trash2}
          title="Nothing was deleted in the last 30 days"
          action={
            <Link className="text-sm text-brand-ink underline" href={portalPath(orgId, portalId)}>
              Back to the files
            </Link>
          }
        >
          Files and folders you delete from this portal appear here, and can be restored for 30 days.
        </EmptyState>
      ) : (
        <DeletedList
          actions={fileActions(orgId)}
          portalId={portalId}
          entries={entries.map((e) => ({
            id: e.id,
            name: e.name,
            isFolder: e.isFolder,
            size: e.size,
            deletedAt: e.deletedAt.toISOString(),
            purgeAfter: e.purgeAfter.toISOString(),
          }))}
        />
      )}
    </div>
  );
}
