"use client";

import { CheckCheck } from "lucide-react";
import { useActionState } from "react";
import { Button } from "@/components/ui/button";
import { useToast } from "@/components/ui/toast";
import type { FormAction, FormState } from "@/lib/web/form-state";

type State = FormState<Record<string, string>> & { done?: boolean };

/** "Mark all seen": everything in the inbox up to now; the header's count goes to zero. */
export function MarkAllSeen({ action }: { action: FormAction<State> }) {
  const toast = useToast();
  const [, formAction, pending] = useActionState(async (prev: State, data: FormData) => {
    const state = await action(prev, data);
    if (state.done) toast("All seen", { description: "New items from clients will show up as new again." });
    else if (state.error) toast("Could not mark all seen", { tone: "error", description: state.error });
    return state;
  }, {});
  return (
    <form action={formAction}>
      <Button type="submit" variant="secondary" disabled={pending}>
        <CheckCheck aria-hidden className="size-4" /> {pending ? "Marking…" : "Mark all seen"}
      </Button>
    </form>
  );
}
