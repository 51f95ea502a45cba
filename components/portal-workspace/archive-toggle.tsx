"use client";

import { Archive, ArchiveRestore } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { BoundAction } from "./state";
import { useRunAction } from "./use-run-action";

/** Archive (asks first: guests and the firm then see it as archived) or restore the portal. */
export function ArchiveToggle({ portalId, name, archived, action }: { portalId: string; name: string; archived: boolean; action: BoundAction }) {
  const { run, pending } = useRunAction(action);
  const [open, setOpen] = useState(false);
  const apply = async () => {
    const done = await run({ portalId, archived: String(!archived) }, archived ? `${name} is active again` : `${name} is archived`);
    if (done) setOpen(false);
  };
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary" data-testid="archive-toggle">
          {archived ? <ArchiveRestore aria-hidden size={16} /> : <Archive aria-hidden size={16} />}
          {archived ? "Restore" : "Archive"}
        </Button>
      }
      title={archived ? `Restore ${name}?` : `Archive ${name}?`}
      description={
        archived
          ? "The portal moves back to the active list. Its files, tasks and guests are unchanged."
          : "The portal leaves the active list and is marked archived. Nothing is deleted: you can restore it at any time."
      }
      confirmLabel={archived ? "Restore portal" : "Archive portal"}
      danger={false}
      pending={pending}
      onConfirm={() => void apply()}
    />
  );
}
