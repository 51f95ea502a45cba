// What the portal workspace's actions give back (app/(web)/org/[orgId]/vault/[portalId]/*-actions.ts).
import type { FormState } from "@/lib/web/form-state";

export interface PortalActionState extends FormState {
  /** Bumped on each success. */
  done?: number;
  /** A sentence for the success toast, when the action has one. */
  message?: string;
}

/** An action bound to its organization, called with a FormData (and the previous state, unused). */
export type BoundAction<S extends FormState = PortalActionState> = (prev: S, formData: FormData) => Promise<S>;
