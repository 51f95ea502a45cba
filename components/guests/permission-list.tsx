import { Check, X } from "lucide-react";

export interface Permissions {
  view: boolean;
  download: boolean;
  upload: boolean;
  deleteOwnUploads: boolean;
}

const LABELS: Record<keyof Permissions, string> = {
  view: "View the portal",
  download: "Download files",
  upload: "Upload files",
  deleteOwnUploads: "Delete their own uploads",
};

const DESCRIPTIONS: Record<keyof Permissions, string> = {
  view: "Open the portal and see its files, tasks and messages.",
  download: "Save the portal's files to their own device.",
  upload: "Add files, to a request or to the portal's folders.",
  deleteOwnUploads: "Remove files they uploaded themselves; nobody else's.",
};

/**
 * What a guest may do, each permission with a tick or a cross (and the words, for screen readers):
 * one per line, or `compact` as a wrapping row for a table cell; `described` adds what each means.
 */
export function PermissionList({ permissions, compact = false, described = false }: { permissions: Permissions; compact?: boolean; described?: boolean }) {
  return (
    <ul className={compact ? "flex flex-wrap gap-x-3 gap-y-0.5 text-xs" : described ? "divide-y divide-line" : "space-y-0.5"} data-testid="permission-list">
      {(Object.keys(LABELS) as (keyof Permissions)[]).map((key) => (
        <li
          key={key}
          data-testid="permission"
          className={`${compact ? "inline-flex items-center" : described ? "flex items-start py-2" : "flex items-center"} gap-1.5 ${permissions[key] ? "text-fg" : "text-fg-subtle"}`}
        >
          {permissions[key] ? (
            <Check aria-hidden size={described ? 16 : 12} className={`shrink-0 text-success ${described ? "mt-0.5" : ""}`} />
          ) : (
            <X aria-hidden size={described ? 16 : 12} className={`shrink-0 ${described ? "mt-0.5" : ""}`} />
          )}
          <span>
            <span className={permissions[key] ? "" : "line-through"}>
              <span className="sr-only">{permissions[key] ? "Can: " : "Cannot: "}</span>
              {LABELS[key]}
            </span>
            {described ? <span className="block text-xs text-fg-muted">{DESCRIPTIONS[key]}</span> : null}
          </span>
        </li>
      ))}
    </ul>
  );
}
