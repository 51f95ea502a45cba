// What the API settings actions give back to their forms (see app/(web)/org/[orgId]/settings/api).
import type { FormState } from "@/lib/web/form-state";

export type { FormAction } from "@/lib/web/form-state";

export interface ClientFormValues {
  name: string;
  redirectUris: string;
  scopes: string[];
}

export interface CreateClientState extends FormState<ClientFormValues> {
  /** The new client's credentials: held only in the form's state, so shown once. */
  created?: { name: string; clientId: string; secret: string };
}

export interface ClientActionState extends FormState {
  /** A rotated secret, shown once. */
  secret?: string;
}

export interface ClientProfileState extends FormState<{ publisherName: string; websiteUrl: string; logoUrl: string }> {
  /** Bumped on each save. */
  saved?: number;
}
