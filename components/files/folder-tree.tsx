import { Folder, FolderOpen } from "lucide-react";
import Link from "next/link";
import type { FolderTreeNode } from "@/lib/files/folder-view";

/** The tree as rows in display order, each with its depth (for indented lists and pickers). */
export function flattenTree(nodes: readonly FolderTreeNode[], depth = 0): { id: string; name: string; depth: number }[] {
  return nodes.flatMap((n) => [{ id: n.id, name: n.name, depth }, ...flattenTree(n.children, depth + 1)]);
}

/**
 * The portal's folders as links (the Files tab's side panel): the root first, the open folder
 * marked as the current page. `hrefOf(null)` is the root's link.
 */
export function FolderTree({
  tree,
  current,
  hrefOf,
}: {
  tree: readonly FolderTreeNode[];
  current: string | null;
  hrefOf: (folderId: string | null) => string;
}) {
  const rows = [{ id: null as string | null, name: "All files", depth: 0 }, ...flattenTree(tree).map((r) => ({ ...r, depth: r.depth + 1 }))];
  return (
    <ul className="space-y-0.5 text-sm" data-testid="folder-tree">
      {rows.map((r) => {
        const active = r.id === current;
        const Icon = active ? FolderOpen : Folder;
        return (
          <li key={r.id ?? "root"}>
            <Link
              href={hrefOf(r.id)}
              aria-current={active ? "page" : undefined}
              style={{ paddingLeft: `${0.5 + r.depth * 0.875}rem` }}
              className={`flex items-center gap-2 rounded-md py-1.5 pr-2 focus-visible:outline-2 focus-visible:outline-brand-ink ${active ? "bg-brand-ink/10 font-medium text-brand-ink" : "text-fg-2 hover:bg-muted"}`}
            >
              <Icon aria-hidden size={16} className="shrink-0" />
              <span className="truncate" title={r.name}>
                {r.name}
              </span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
