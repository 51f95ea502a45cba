"use client";

import { startTransition, useActionState, useEffect, useRef, type FormEvent } from "react";
import { useToast } from "@/components/ui/toast";
import type { BoundAction, PortalActionState } from "./state";

/**
 * useActionState for a dialog's form: on each success a toast (the action's message, else
 * `success`) and `onDone` (close, reset); errors stay in the state for the form to show.
 * Submitted through `onSubmit` (not `action`), so React does not reset the form after a refused
 * attempt: nothing typed is lost.
 */
export function useFormResult(action: BoundAction, onDone: (state: PortalActionState) => void, success?: string) {
  const [state, formAction, pending] = useActionState(action, {});
  const toast = useToast();
  const seen = useRef<number | undefined>(undefined);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  useEffect(() => {
    if (!state.done || state.done === seen.current) return;
    seen.current = state.done;
    const message = state.message ?? success;
    if (message) toast(message);
    done.current(state);
  }, [state, success, toast]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    startTransition(() => formAction(data));
  };
  return { state, onSubmit, pending };
}
