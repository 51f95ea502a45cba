import { ArrowDown, ArrowUp, ChevronRight, FileText, Folder, FolderTree as FolderTreeIcon } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { EntryActions } from "@/components/files/entry-actions";
import { FilePreview } from "@/components/files/file-preview";
import { previewFileOf } from "@/components/files/preview-file";
import { FolderTree } from "@/components/files/folder-tree";
import { formatSize } from "@/components/files/format";
import { NewFolderButton } from "@/components/files/new-folder-button";
import { PartnerPushStatus } from "@/components/files/partner-push-status";
import { Uploader } from "@/components/files/uploader";
import { FirstSteps } from "@/components/portal-workspace/first-steps";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";
import { Table, Td, Th } from "@/components/ui/table";
import { mayPortal } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { getFilePreview } from "@/lib/files/file-url";
import { FOLDER_SORTS, getFolderTree, getFolderView, type FolderSort } from "@/lib/files/folder-view";
import { isUuid } from "@/lib/ids";
import { listPartnerPushStatuses } from "@/lib/partner/push";
import { fileDownloadPath, portalPath, portalViewPath } from "@/lib/links";
import { getPortalFirstSteps } from "@/lib/portals/first-steps";
import { loadMemberPortal, tabMetadata } from "../../load-portal";
import { resendPartnerPushAction } from "../../partner-actions";
import { fileActions } from "@/app/(web)/org/[orgId]/vault/[portalId]/bind-file-actions";
import { orNotFound } from "@/lib/web/or-not-found";
import { Time } from "@/components/ui/time";

type Params = { orgId: string; portalId: string; folderId: string };
type Search = { sort?: string; dir?: string; page?: string; file?: string };

const PAGE_SIZE = 50;

/** The viewer (the layout checks the portal; getFolderView checks it again): no role in the organization is not found. */
async function loadViewer(orgId: string, portalId: string, folderId: string) {
  if (!isUuid(orgId) || !isUuid(portalId)) notFound();
  const viewer = await findWebViewer(orgId, portalPath(orgId, portalId, folderId === "main" ? null : folderId));
  if (!viewer) notFound();
  return viewer;
}

/** The list's state from the URL; anything unknown falls back to the default. */
function listState(search: Search) {
  const sort: FolderSort = FOLDER_SORTS.includes(search.sort as FolderSort) ? (search.sort as FolderSort) : "name";
  const dir: "asc" | "desc" = search.dir === "desc" ? "desc" : "asc";
  const page = /^[1-9][0-9]{0,6}$/.test(search.page ?? "") ? Number(search.page) : 1;
  return { sort, dir, page };
}

/**
 * The table's columns. The table is fixed-width (as wide as its card): each column but the name
 * has its width, the name takes the rest and is cut short with an ellipsis (the full name on
 * hover, on keyboard focus and in its accessible name). Narrower screens drop columns, whose
 * values then show in a line under the name (`META`): the name and the row's actions always fit.
 */
const COLUMN_CLASS = {
  size: "hidden w-24 text-right lg:table-cell",
  type: "hidden w-16 2xl:table-cell",
  uploader: "hidden w-36 lg:table-cell",
  date: "hidden w-32 sm:table-cell",
  task: "hidden w-40 xl:table-cell",
} as const;
/** The line under the name: each value shows where its column is hidden. */
const META_CLASS = { size: "lg:hidden", type: "2xl:hidden", uploader: "lg:hidden", date: "sm:hidden", task: "xl:hidden" } as const;

const COLUMNS: { sort: FolderSort; label: string; className?: string }[] = [
  { sort: "name", label: "Name" },
  { sort: "size", label: "Size", className: COLUMN_CLASS.size },
  { sort: "type", label: "Type", className: COLUMN_CLASS.type },
  { sort: "uploader", label: "Uploaded by", className: COLUMN_CLASS.uploader },
  { sort: "date", label: "Date", className: COLUMN_CLASS.date },
];

/** The Files tab is the portal's main page: titled with the portal's name alone. */
export const generateMetadata = tabMetadata();

export default async function PortalFolderPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }) {
  const { orgId, portalId, folderId } = await params;
  const search = await searchParams;
  const viewer = await loadViewer(orgId, portalId, folderId);
  const parent = folderId === "main" ? null : folderId;
  if (parent !== null && !isUuid(parent)) notFound();
  const { sort, dir, page } = listState(search);
  const previewId = search.file && isUuid(search.file) ? search.file : null;

  const { portal } = await loadMemberPortal(orgId, portalId);
  const template = portal.isTemplate;
  const showFirstSteps = !template && parent === null && mayPortal(viewer, portalId, "update");
  const [view, tree, preview, firstSteps] = await orNotFound(
    Promise.all([
      getFolderView({ viewer, portalId, folderId: parent, sort, dir, page, pageSize: PAGE_SIZE }),
      getFolderTree({ viewer, portalId }),
      previewId ? getFilePreview({ viewer, portalId, fileId: previewId }) : null,
      showFirstSteps ? getPortalFirstSteps({ viewer, portalId }) : null,
    ]),
  );
  const canManage = mayPortal(viewer, portalId, "manageFiles");
  // Each file's push to the partner, for the firm: absent when never pushed.
  const pushes = canManage ? await listPartnerPushStatuses({ viewer, portalId }) : {};
  const canUpload = mayPortal(viewer, portalId, "upload");
  const files = fileActions(orgId);

  const base = portalPath(orgId, portalId, parent);
  /** This folder's link with the list state, changed by `change`. */
  const href = (change: Partial<{ sort: FolderSort; dir: "asc" | "desc"; page: number; file: string | null }>) => {
    const next = { sort, dir, page, file: null as string | null, ...change };
    const q = new URLSearchParams();
    if (next.sort !== "name") q.set("sort", next.sort);
    if (next.dir !== "asc") q.set("dir", next.dir);
    if (next.page !== 1) q.set("page", String(next.page));
    if (next.file) q.set("file", next.file);
    const s = q.toString();
    return s ? `${base}?${s}` : base;
  };
  const pages = Math.max(1, Math.ceil(view.total / PAGE_SIZE));
  const first = view.total === 0 ? 0 : (page - 1) * PAGE_SIZE + 1;
  const last = Math.min(view.total, page * PAGE_SIZE);
  const previewFile = preview ? previewFileOf(preview, fileDownloadPath(orgId, portalId, preview.id)) : null;

  return (
    <div className="space-y-4" data-testid="files-tab">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <nav aria-label="Folder path" className="min-w-0">
          <ol className="flex flex-wrap items-center gap-1 text-sm" data-testid="breadcrumbs">
            <li>
              {view.breadcrumbs.length === 0 ? (
                <h2 className="text-lg font-semibold" aria-current="page">
                  All files
                </h2>
              ) : (
                <Link className="text-brand-ink hover:underline" href={portalPath(orgId, portalId)}>
                  All files
                </Link>
              )}
            </li>
            {view.breadcrumbs.map((c, i) => (
              <li key={c.id} className="flex items-center gap-1">
                <ChevronRight aria-hidden size={14} className="text-fg-faint" />
                {i === view.breadcrumbs.length - 1 ? (
                  <h2 className="text-lg font-semibold" aria-current="page">
                    {c.name}
                  </h2>
                ) : (
                  <Link className="text-brand-ink hover:underline" href={portalPath(orgId, portalId, c.id)}>
                    {c.name}
                  </Link>
                )}
              </li>
            ))}
          </ol>
        </nav>
        <div className="flex flex-wrap gap-2">{canManage ? <NewFolderButton actions={files} portalId={portalId} parentId={parent} /> : null}</div>
      </div>

      <div className="grid grid-cols-1 gap-4 md:grid-cols-[14rem_minmax(0,1fr)]">
        <aside aria-label="Folders" className="min-w-0">
          <details className="rounded-lg border border-line bg-surface p-2 md:hidden">
            <summary className="flex cursor-pointer items-center gap-2 px-2 py-1 text-sm font-medium">
              <FolderTreeIcon aria-hidden size={16} /> Folders
            </summary>
            <div className="mt-2">
              <FolderTree tree={tree} current={parent} hrefOf={(id) => portalPath(orgId, portalId, id)} />
            </div>
          </details>
          <div className="hidden rounded-lg border border-line bg-surface p-2 md:block">
            <FolderTree tree={tree} current={parent} hrefOf={(id) => portalPath(orgId, portalId, id)} />
          </div>
        </aside>

        <div className="min-w-0 space-y-4">
          {firstSteps ? (
            <FirstSteps steps={firstSteps} guestsHref={portalViewPath(orgId, portalId, "guests")} tasksHref={portalViewPath(orgId, portalId, "tasks")} />
          ) : null}
          {canUpload ? <Uploader actions={files} portalId={portalId} folderId={parent} /> : null}
          {view.total === 0 ? (
            // With the upload area above, an empty folder needs no second box: one line says it.
            canUpload ? (
              <p className="text-sm text-fg-muted" data-testid="folder-empty">
                {template
                  ? "This template is empty. Portals started from it get its folders; the PDFs you upload here can be sent for signature in requests."
                  : "This folder is empty."}
                {canManage ? " Use New folder to organize files into folders." : ""}
              </p>
            ) : (
              <EmptyState icon={FileText} title="This folder is empty">
                Nothing has been shared here yet.
              </EmptyState>
            )
          ) : (
            <>
              <Table
                fixed
                phone="fit"
                caption={`Files in ${view.folder?.name ?? "the portal root"}, sorted by ${sort} ${dir === "asc" ? "ascending" : "descending"}`}
              >
                <thead>
                  <tr>
                    {COLUMNS.map((c) => {
                      const active = c.sort === sort;
                      const nextDir = active && dir === "asc" ? "desc" : "asc";
                      return (
                        <Th key={c.sort} className={c.className} aria-sort={active ? (dir === "asc" ? "ascending" : "descending") : undefined}>
                          <Link
                            href={href({ sort: c.sort, dir: nextDir, page: 1 })}
                            className="inline-flex items-center gap-1 hover:text-fg"
                            data-testid={`sort-${c.sort}`}
                          >
                            {c.label}
                            {active ? dir === "asc" ? <ArrowUp aria-hidden size={12} /> : <ArrowDown aria-hidden size={12} /> : null}
                          </Link>
                        </Th>
                      );
                    })}
                    <Th className={COLUMN_CLASS.task}>Linked task</Th>
                    <Th className="w-16">
                      <span className="sr-only">Actions</span>
                    </Th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-line-soft" data-testid="file-rows">
                  {view.items.map((e) => (
                    <tr key={e.id} data-testid="file-row" data-name={e.name}>
                      <Td>
                        <Link
                          className={`group flex min-w-0 items-center gap-2 hover:underline ${e.isFolder ? "font-medium text-brand-ink" : "text-fg"}`}
                          href={e.isFolder ? portalPath(orgId, portalId, e.id) : href({ file: e.id })}
                          scroll={e.isFolder ? undefined : false}
                          title={e.name}
                        >
                          {e.isFolder ? (
                            <Folder aria-hidden size={16} className="shrink-0" />
                          ) : (
                            <FileText aria-hidden size={16} className="shrink-0 text-fg-faint" />
                          )}
                          <span className="min-w-0 truncate group-focus-visible:break-all group-focus-visible:whitespace-normal" data-testid="file-name">
                            {e.name}
                          </span>
                        </Link>
                        <div className="flex flex-wrap gap-x-2 pl-6 text-xs text-fg-muted 2xl:hidden">
                          {e.isFolder ? null : <span className={META_CLASS.size}>{formatSize(e.size)}</span>}
                          {e.isFolder ? null : <span className={META_CLASS.type}>{e.extension ? e.extension.toUpperCase() : "File"}</span>}
                          {e.uploader ? (
                            <span className={`min-w-0 truncate ${META_CLASS.uploader}`} title={e.uploader.name ?? e.uploader.email}>
                              {e.uploader.name ?? e.uploader.email}
                            </span>
                          ) : null}
                          <Time value={e.uploadedAt} format="relative" className={META_CLASS.date} />
                          {e.task ? (
                            <span className={`min-w-0 truncate ${META_CLASS.task}`} title={e.task.title}>
                              Task: {e.task.title}
                            </span>
                          ) : null}
                        </div>
                        {!e.isFolder && pushes[e.id] ? (
                          <div className="mt-0.5 pl-6">
                            <PartnerPushStatus
                              push={pushes[e.id]}
                              portalId={portalId}
                              fileId={e.id}
                              fileName={e.name}
                              resend={resendPartnerPushAction.bind(null, orgId)}
                            />
                          </div>
                        ) : null}
                      </Td>
                      <Td className={`whitespace-nowrap ${COLUMN_CLASS.size}`}>{e.isFolder ? "—" : formatSize(e.size)}</Td>
                      <Td className={`whitespace-nowrap ${COLUMN_CLASS.type}`}>{e.isFolder ? "Folder" : e.extension ? e.extension.toUpperCase() : "File"}</Td>
                      <Td className={`truncate ${COLUMN_CLASS.uploader}`} title={e.uploader ? (e.uploader.name ?? e.uploader.email) : undefined}>
                        {e.uploader ? (e.uploader.name ?? e.uploader.email) : "—"}
                      </Td>
                      <Td className={`whitespace-nowrap ${COLUMN_CLASS.date}`}>
                        <Time value={e.uploadedAt} format="relative" />
                      </Td>
                      <Td className={`truncate ${COLUMN_CLASS.task}`} title={e.task?.title}>
                        {e.task ? e.task.title : "—"}
                      </Td>
                      <Td className="text-right">
                        <EntryActions
                          actions={files}
                          portalId={portalId}
                          entry={{ id: e.id, name: e.name, isFolder: e.isFolder, parentId: parent }}
                          tree={tree}
                          previewHref={e.isFolder ? null : href({ file: e.id })}
                          downloadHref={e.isFolder ? null : fileDownloadPath(orgId, portalId, e.id)}
                          canManage={canManage}
                        />
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
              <Pagination
                summary={`${first.toLocaleString("en")}–${last.toLocaleString("en")} of ${view.total.toLocaleString("en")} · page ${page} of ${pages}`}
                previousHref={page > 1 ? href({ page: page - 1 }) : null}
                nextHref={page < pages ? href({ page: page + 1 }) : null}
              />
            </>
          )}
        </div>
      </div>
      {previewFile ? <FilePreview key={previewFile.id} file={previewFile} closeHref={href({ file: null })} /> : null}
    </div>
  );
}
