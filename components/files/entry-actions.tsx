"use client";

import { Download, Eye, FolderInput, Pencil, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useActionState, useState, useTransition } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogFooter } from "@/components/ui/dialog";
import { ActionMenu, type MenuItem } from "@/components/ui/dropdown-menu";
import { Input } from "@/components/ui/input";
import { useToast } from "@/components/ui/toast";
import { useDone } from "./use-done";
import type { FolderTreeNode } from "@/lib/files/folder-view";
import { flattenTree } from "./folder-tree";
import type { EntryState, FileActions } from "./actions";

export interface EntryRef {
  id: string;
  name: string;
  isFolder: boolean;
  /** The folder it is in; null: the root. */
  parentId: string | null;
}

function formData(fields: Record<string, string>): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.set(k, v);
  return fd;
}

/** The message of a failed action's state. */
function failure(state: EntryState): string | undefined {
  return state.error ?? Object.values(state.fieldErrors ?? {}).find(Boolean);
}

/** Deletes an entry, with a toast whose Undo restores it (both through the web actions). */
function useDeleteEntry(actions: FileActions, portalId: string) {
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  const remove = (entry: { id: string; name: string; isFolder: boolean }) =>
    start(async () => {
      const state = await actions.deleteEntry({}, formData({ portalId, fileId: entry.id, name: entry.name }));
      if (!state.done) {
        toast(`Could not delete ${entry.name}`, { tone: "error", description: failure(state) });
        return;
      }
      toast(`Deleted ${entry.name}`, {
        description: entry.isFolder ? "The folder and everything in it can be restored for 30 days." : "It can be restored for 30 days.",
        action: {
          label: "Undo",
          altText: "Undo the delete (also possible from Recently deleted)",
          onClick: () =>
            start(async () => {
              const restored = await actions.restoreEntry({}, formData({ portalId, fileId: entry.id }));
              if (restored.done) toast(`Restored ${entry.name}`);
              else toast(`Could not restore ${entry.name}`, { tone: "error", description: failure(restored) });
              router.refresh();
            }),
        },
      });
    });
  return { remove, pending };
}

/** The row's menu: preview and download (files), rename, move and delete (members). */
export function EntryActions({
  actions,
  portalId,
  entry,
  tree,
  previewHref,
  downloadHref,
  canManage,
}: {
  actions: FileActions;
  portalId: string;
  entry: EntryRef;
  tree: readonly FolderTreeNode[];
  previewHref: string | null;
  /** The download route (files); built by the page (lib/links reads the environment's zod schema). */
  downloadHref: string | null;
  canManage: boolean;
}) {
  const router = useRouter();
  const [dialog, setDialog] = useState<"rename" | "move" | null>(null);
  const { remove } = useDeleteEntry(actions, portalId);
  const items: MenuItem[] = [];
  if (previewHref) items.push({ label: "Preview", icon: Eye, onSelect: () => router.push(previewHref, { scroll: false }) });
  if (downloadHref) items.push({ label: "Download", icon: Download, onSelect: () => window.location.assign(downloadHref) });
  if (canManage) {
    items.push(
      { label: "Rename", icon: Pencil, onSelect: () => setDialog("rename") },
      { label: "Move", icon: FolderInput, onSelect: () => setDialog("move") },
      { label: "Delete", icon: Trash2, danger: true, onSelect: () => remove(entry) },
    );
  }
  if (items.length === 0) return null;
  return (
    <>
      <ActionMenu label={`Actions for ${entry.name}`} items={items} />
      {dialog === "rename" ? <RenameDialog actions={actions} portalId={portalId} entry={entry} onClose={() => setDialog(null)} /> : null}
      {dialog === "move" ? <MoveDialog actions={actions} portalId={portalId} entry={entry} tree={tree} onClose={() => setDialog(null)} /> : null}
    </>
  );
}

function RenameDialog({ actions, portalId, entry, onClose }: { actions: FileActions; portalId: string; entry: EntryRef; onClose: () => void }) {
  const [state, action, pending] = useActionState(actions.renameEntry, {});
  useDone(state, (name) => `Renamed to ${name}`, onClose);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Rename ${entry.isFolder ? "folder" : "file"}`}>
      <form action={action} className="space-y-4">
        <input type="hidden" name="portalId" value={portalId} />
        <input type="hidden" name="fileId" value={entry.id} />
        <Input id="rename-name" name="name" label="New name" defaultValue={entry.name} required maxLength={255} autoFocus error={state.fieldErrors?.name} />
        {state.error ? <Alert>{state.error}</Alert> : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={pending}>
            {pending ? "Renaming…" : "Rename"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}

function MoveDialog({
  actions,
  portalId,
  entry,
  tree,
  onClose,
}: {
  actions: FileActions;
  portalId: string;
  entry: EntryRef;
  tree: readonly FolderTreeNode[];
  onClose: () => void;
}) {
  const [state, action, pending] = useActionState(actions.moveEntry, {});
  useDone(state, (name) => `Moved ${name}`, onClose);
  // A folder cannot go into itself or below itself: its subtree is left out.
  const rows = flattenTree(entry.isFolder ? prune(tree, entry.id) : tree);
  const [target, setTarget] = useState<string>(entry.parentId ?? "main");
  const options = [{ id: "main", name: "All files (the portal root)", depth: 0 }, ...rows.map((r) => ({ ...r, depth: r.depth + 1 }))];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Move ${entry.name}`} description="Choose the folder it goes into.">
      <form action={action} className="space-y-4">
        <input type="hidden" name="portalId" value={portalId} />
        <input type="hidden" name="fileId" value={entry.id} />
        <fieldset>
          <legend className="sr-only">Destination folder</legend>
          <div className="max-h-72 space-y-0.5 overflow-y-auto rounded-md border border-line p-2" data-testid="move-tree">
            {options.map((o) => (
              <label
                key={o.id}
                className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-subtle"
                style={{ paddingLeft: `${0.5 + o.depth * 1}rem` }}
              >
                <input type="radio" name="parentId" value={o.id} checked={target === o.id} onChange={() => setTarget(o.id)} className="accent-brand" />
                <span className="truncate" title={o.name}>
                  {o.name}
                </span>
                {o.id === (entry.parentId ?? "main") ? <span className="text-xs text-fg-subtle">(current)</span> : null}
              </label>
            ))}
          </div>
        </fieldset>
        {failure(state) ? <Alert>{failure(state)}</Alert> : null}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button type="submit" disabled={pending || target === (entry.parentId ?? "main")}>
            {pending ? "Moving…" : "Move here"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}

function prune(nodes: readonly FolderTreeNode[], id: string): FolderTreeNode[] {
  return nodes.filter((n) => n.id !== id).map((n) => ({ ...n, children: prune(n.children, id) }));
}
