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

/** What a guest may do, each permission with a tick or a cross (and the words, for screen readers). */
export function PermissionList({ permissions, compact = false }: { permissions: Permissions; compact?: boolean }) {
  return (
    <ul className={compact ? "flex flex-wrap gap-x-3 gap-y-0.5 text-xs" : "space-y-0.5"}>
      {(Object.keys(LABELS) as (keyof Permissions)[]).map((key) => (
        <li key={key} className={`inline-flex items-center gap-1 ${permissions[key] ? "text-slate-800" : "text-slate-500 line-through"}`}>
          {permissions[key] ? <Check aria-hidden size={12} className="text-emerald-700" /> : <X aria-hidden size={12} />}
          <span>
            <span className="sr-only">{permissions[key] ? "Can: " : "Cannot: "}</span>
            {LABELS[key]}
          </span>
        </li>
      ))}
    </ul>
  );
}
