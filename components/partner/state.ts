// What the partner settings actions give back to their forms (app/(web)/org/[orgId]/settings/partner).
import type { FormState } from "@/lib/web/form-state";

export type { FormAction } from "@/lib/web/form-state";

export interface PartnerFormValues {
  apiUrl: string;
}

export interface PartnerFormState extends FormState<PartnerFormValues> {
  /** Bumped when a test passed. */
  tested?: number;
  /** Bumped when the connection was saved. */
  saved?: number;
}

export interface PartnerActionState extends FormState {
  /** Bumped on each success. */
  done?: number;
}
