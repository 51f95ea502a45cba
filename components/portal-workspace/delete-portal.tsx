"use client";

import { Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import type { BoundAction } from "./state";
import { useRunAction } from "./use-run-action";

/** Permanent delete, confirmed by typing the portal's exact name; then the organization's portal list. */
export function DeletePortalButton({ portalId, name, action, listPath }: { portalId: string; name: string; action: BoundAction; listPath: string }) {
  const { run, pending } = useRunAction(action);
  const router = useRouter();
  const toast = useToast();
  return (
    <ConfirmDialog
      trigger={
        <Button variant="danger" data-testid="delete-portal">
          <Trash2 aria-hidden size={16} />
          Delete portal permanently
        </Button>
      }
      title={`Delete ${name} permanently?`}
      description={
        <>
          <p>Every file, folder, task, guest and invitation of this portal is removed, with the stored files themselves. This cannot be undone.</p>
          <p className="mt-2">The organization keeps a record that the portal was deleted, by whom and when.</p>
        </>
      }
      typeToConfirm={name}
      confirmLabel="Delete permanently"
      pending={pending}
      onConfirm={async () => {
        // The toast (the action's message) outlives the navigation: the provider is in the root layout.
        const state = await run({ portalId, confirmName: name });
        if (state) {
          toast(state.message ?? `${name} was deleted`);
          router.replace(listPath);
        }
      }}
    />
  );
}
