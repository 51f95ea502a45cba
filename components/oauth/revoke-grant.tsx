"use client";

import { useActionState } from "react";
import type { ClientActionState, FormAction } from "@/components/oauth/state";
import { Button } from "@/components/ui/button";

/** Revokes one connected app; its tokens stop working at once. */
export function RevokeGrant({ grantId, appName, action }: { grantId: string; appName: string; action: FormAction<ClientActionState> }) {
  const [state, formAction, pending] = useActionState(action, {});
  return (
    <form action={formAction} className="flex items-center gap-3">
      <input type="hidden" name="id" value={grantId} />
      {state.error ? (
        <span role="alert" className="text-sm text-danger">
          {state.error}
        </span>
      ) : null}
      <Button type="submit" variant="secondary" disabled={pending} aria-label={`Revoke ${appName}`}>
        Revoke
      </Button>
    </form>
  );
}
