"use client";

import { useCallback, useTransition } from "react";
import { useToast } from "@/components/ui/toast";
import type { FormState } from "@/lib/web/form-state";
import type { BoundAction } from "./state";

/** The first message of a failed action's state (its form message or a field's), else null. */
function stateError(state: FormState): string | null {
  return state.error ?? Object.values(state.fieldErrors ?? {}).find(Boolean) ?? null;
}

/**
 * Runs a bound server action outside a form (a select, a chip's remove button): the fields as an
 * object, pending while it runs, a toast naming the error when it fails. Resolves to the state,
 * or null when it failed.
 */
export function useRunAction<S extends FormState>(action: BoundAction<S>) {
  const [pending, startTransition] = useTransition();
  const toast = useToast();
  const run = useCallback(
    (fields: Record<string, string | string[]>, success?: string) =>
      new Promise<S | null>((resolve) => {
        const data = new FormData();
        for (const [key, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) data.append(key, v);
        startTransition(async () => {
          const state = await action({} as S, data);
          const error = stateError(state);
          if (error) toast("That did not work", { tone: "error", description: error });
          else if (success) toast(success);
          resolve(error ? null : state);
        });
      }),
    [action, toast],
  );
  return { run, pending };
}
