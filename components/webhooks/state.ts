// What the webhook settings actions give back to their forms (app/(web)/org/[orgId]/settings/webhooks).

export interface WebhookFormValues {
  url: string;
  events: string[];
  enabled: boolean;
}

export interface WebhookFormState {
  error?: string;
  /** The input, given back after an error so that nothing typed is lost. */
  values?: WebhookFormValues;
  /** Bumped on each success, so the form can close or reset. */
  saved?: number;
}

export interface WebhookActionState {
  error?: string;
  /** The latest test send's result. */
  test?: { success: boolean; statusCode: number | null; error: string | null; deliveryId: string };
  /** Bumped on each success. */
  done?: number;
}

export type FormAction<S> = (state: S, formData: FormData) => Promise<S>;
