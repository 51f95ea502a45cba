import { CalendarClock, ChevronDown, Download, FileSignature, FileText } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { fileDownloadPath, guestFilePath, guestPortalPath, GUEST_HOME_PATH } from "@/lib/links";
import { Time } from "@/components/ui/time";

// Pieces of the client's pages (guest home and portal view), server-rendered.

export const ACTION_LABEL: Record<string, string> = {
  General: "To do",
  Question: "Question",
  FileRequest: "Files requested",
  SignDocument: "Signature",
  FillForm: "Form",
};

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** "Due 5 Dec 2026", red when past. */
export function DueDate({ date, now = new Date() }: { date: Date | null; now?: Date }) {
  if (!date) return <span className="text-sm text-fg-muted">No due date</span>;
  const overdue = date.getTime() < now.getTime();
  return (
    <span className={`inline-flex items-center gap-1 text-sm ${overdue ? "font-medium text-danger" : "text-fg-2"}`}>
      <CalendarClock aria-hidden className="size-4" />
      {overdue ? "Overdue since" : "Due"} <Time value={date} format="date" />
    </span>
  );
}

export interface SwitcherPortal {
  orgId: string;
  orgName: string;
  portalId: string;
  portalName: string;
  openCount: number;
}

/** The client's other portals (all firms), behind a native disclosure; nothing when there is only one. */
export function PortalSwitcher({ portals, currentPortalId }: { portals: SwitcherPortal[]; currentPortalId: string }) {
  if (portals.length < 2) return null;
  return (
    <details className="group relative">
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 rounded-md border border-line-strong bg-surface px-3 py-2 text-sm font-medium text-fg hover:bg-subtle focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-ink">
        Switch portal <ChevronDown aria-hidden className="size-4 transition group-open:rotate-180" />
      </summary>
      <nav aria-label="Your portals" className="mt-2 rounded-md border border-line bg-surface p-2 shadow-sm sm:absolute sm:z-10 sm:min-w-72">
        <ul className="space-y-1">
          {portals.map((p) => (
            <li key={p.portalId}>
              <Link
                href={guestPortalPath(p.orgId, p.portalId)}
                aria-current={p.portalId === currentPortalId ? "page" : undefined}
                className="flex items-center justify-between gap-3 rounded px-2 py-2 text-sm hover:bg-muted aria-[current=page]:bg-muted aria-[current=page]:font-semibold"
              >
                <span>
                  <span className="block text-fg">{p.portalName}</span>
                  <span className="block text-xs text-fg-muted">{p.orgName}</span>
                </span>
                {p.openCount > 0 ? <Badge tone="warning">{p.openCount} to do</Badge> : null}
              </Link>
            </li>
          ))}
          <li className="border-t border-line-soft pt-1">
            <Link href={GUEST_HOME_PATH} className="block rounded px-2 py-2 text-sm text-brand-ink underline hover:bg-muted">
              All your portals
            </Link>
          </li>
        </ul>
      </nav>
    </details>
  );
}

export interface FileRow {
  id: string;
  name: string;
  size: number;
  registeredAt: Date | null;
  signed: boolean;
}

/** Files with a preview and a download link only when the client may download (the routes refuse otherwise too). */
export function FileList({ orgId, portalId, files, canDownload }: { orgId: string; portalId: string; files: FileRow[]; canDownload: boolean }) {
  return (
    <ul className="divide-y divide-line-soft" data-testid="guest-files">
      {files.map((f) => (
        <li key={f.id} className="flex items-center justify-between gap-3 py-3" data-testid="guest-file">
          <span className="flex min-w-0 items-center gap-2">
            {f.signed ? (
              <FileSignature aria-hidden className="size-5 shrink-0 text-success" />
            ) : (
              <FileText aria-hidden className="size-5 shrink-0 text-fg-subtle" />
            )}
            <span className="min-w-0">
              {canDownload ? (
                // Opens the file's preview on this page (the same as the firm's).
                <Link
                  href={guestFilePath(orgId, portalId, f.id)}
                  scroll={false}
                  className="block truncate text-sm font-medium text-brand-ink hover:underline"
                  title={f.name}
                >
                  {f.name}
                </Link>
              ) : (
                <span className="block truncate text-sm font-medium text-fg" title={f.name}>
                  {f.name}
                </span>
              )}
              <span className="block text-xs text-fg-muted">
                {formatSize(f.size)} · <Time value={f.registeredAt} format="relative" />
                {f.signed ? " · Signed" : ""}
              </span>
            </span>
          </span>
          {canDownload ? (
            <a
              href={fileDownloadPath(orgId, portalId, f.id)}
              className="inline-flex shrink-0 items-center gap-1 rounded-md px-2 py-1.5 text-sm font-medium text-brand-ink hover:bg-muted focus-visible:outline-2 focus-visible:outline-brand-ink"
              aria-label={`Download ${f.name}`}
            >
              <Download aria-hidden className="size-4" /> Download
            </a>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
