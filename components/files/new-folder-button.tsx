"use client";

import { FolderPlus } from "lucide-react";
import { useActionState, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogClose, DialogFooter } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { useDone } from "./use-done";
import type { FileActions } from "./actions";

/** "New folder": a dialog asking for the name; the folder goes into the open folder. */
export function NewFolderButton({ actions, portalId, parentId }: { actions: FileActions; portalId: string; parentId: string | null }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title="New folder"
      trigger={
        <Button variant="secondary">
          <FolderPlus aria-hidden size={16} /> New folder
        </Button>
      }
    >
      {open ? <NewFolderForm actions={actions} portalId={portalId} parentId={parentId} onDone={() => setOpen(false)} /> : null}
    </Dialog>
  );
}

function NewFolderForm({ actions, portalId, parentId, onDone }: { actions: FileActions; portalId: string; parentId: string | null; onDone: () => void }) {
  const [state, action, pending] = useActionState(actions.createFolder, {});
  useDone(state, (name) => `Created folder ${name}`, onDone);
  return (
    <form action={action} className="space-y-4">
      <input type="hidden" name="portalId" value={portalId} />
      <input type="hidden" name="parentId" value={parentId ?? ""} />
      <Input id="folder-name" name="name" label="Folder name" required maxLength={255} autoFocus error={state.fieldErrors?.name} />
      {state.error ? <Alert>{state.error}</Alert> : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="secondary">Cancel</Button>
        </DialogClose>
        <Button type="submit" disabled={pending}>
          {pending ? "Creating…" : "Create folder"}
        </Button>
      </DialogFooter>
    </form>
  );
}
