// What the API settings actions give back to their forms (see app/(web)/org/[orgId]/settings/api).

export interface CreateClientState {
  error?: string;
  /** The input, given back after an error so that nothing typed is lost. */
  values?: { name: string; redirectUris: string; scopes: string[] };
  /** The new client's credentials: held only in the form's state, so shown once. */
  created?: { name: string; clientId: string; secret: string };
}

export interface ClientActionState {
  error?: string;
  /** A rotated secret, shown once. */
  secret?: string;
}

export type FormAction<S> = (state: S, formData: FormData) => Promise<S>;
