"use client";

import { FileText, Folder, RotateCcw } from "lucide-react";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Table, Td, Th } from "@/components/ui/table";
import { useToast } from "@/components/ui/toast";
import { formatSize } from "./format";
import type { FileActions } from "./actions";
import { Time } from "@/components/ui/time";

export interface DeletedRow {
  id: string;
  name: string;
  isFolder: boolean;
  size: number;
  deletedAt: string;
  purgeAfter: string;
}

/** The Recently deleted table with a Restore button per entry. */
export function DeletedList({ actions, portalId, entries }: { actions: FileActions; portalId: string; entries: DeletedRow[] }) {
  const toast = useToast();
  const [pending, start] = useTransition();
  const [busy, setBusy] = useState<string | null>(null);
  const restore = (entry: DeletedRow) => {
    setBusy(entry.id);
    start(async () => {
      const fd = new FormData();
      fd.set("portalId", portalId);
      fd.set("fileId", entry.id);
      const state = await actions.restoreEntry({}, fd);
      setBusy(null);
      if (state.done) toast(`Restored ${entry.name}`);
      else toast(`Could not restore ${entry.name}`, { tone: "error", description: state.error ?? Object.values(state.fieldErrors ?? {}).find(Boolean) });
    });
  };
  return (
    <Table caption="Recently deleted files and folders">
      <thead>
        <tr>
          <Th>Name</Th>
          <Th className="text-right">Size</Th>
          <Th>Deleted</Th>
          <Th>Removed for good after</Th>
          <Th>
            <span className="sr-only">Actions</span>
          </Th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line-soft">
        {entries.map((e) => (
          <tr key={e.id} data-testid="deleted-row" data-name={e.name}>
            <Td>
              <span className="inline-flex items-center gap-2">
                {e.isFolder ? <Folder aria-hidden size={16} className="text-fg-subtle" /> : <FileText aria-hidden size={16} className="text-fg-faint" />}
                {e.name}
              </span>
            </Td>
            <Td className="text-right whitespace-nowrap">{e.isFolder ? "—" : formatSize(e.size)}</Td>
            <Td className="whitespace-nowrap">
              <Time value={e.deletedAt} format="relative" />
            </Td>
            <Td className="whitespace-nowrap">
              <Time value={e.purgeAfter} format="date" />
            </Td>
            <Td className="text-right">
              <Button variant="secondary" size="sm" disabled={pending && busy === e.id} onClick={() => restore(e)} aria-label={`Restore ${e.name}`}>
                <RotateCcw aria-hidden size={14} /> {pending && busy === e.id ? "Restoring…" : "Restore"}
              </Button>
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
