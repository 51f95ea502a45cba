"use client";

import { useEffect } from "react";
import { useToast } from "@/components/ui/toast";

/** Closes a dialog and shows a toast once its action answered with `done` (a new state, not a re-render). */
export function useDone(state: { done?: { name: string } }, message: (name: string) => string, onClose: () => void): void {
  const toast = useToast();
  useEffect(() => {
    if (state.done) {
      toast(message(state.done.name));
      onClose();
    }
    // Only a new state closes the dialog.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state]);
}
