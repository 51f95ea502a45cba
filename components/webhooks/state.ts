// What the webhook settings actions give back to their forms (app/(web)/org/[orgId]/settings/webhooks).
import type { FormState } from "@/lib/web/form-state";

export type { FormAction } from "@/lib/web/form-state";

export interface WebhookFormValues {
  url: string;
  events: string[];
  enabled: boolean;
}

export interface WebhookFormState extends FormState<WebhookFormValues> {
  /** Bumped on each success, so the form can close or reset. */
  saved?: number;
}

export interface WebhookActionState extends FormState {
  /** The latest test send's result. */
  test?: { success: boolean; statusCode: number | null; error: string | null; deliveryId: string };
  /** Bumped on each success. */
  done?: number;
}
