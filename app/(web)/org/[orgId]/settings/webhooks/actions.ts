"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { WebhookActionState, WebhookFormState, WebhookFormValues } from "@/components/webhooks/state";
import { orgAction } from "@/lib/web/org-action";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { redeliverWebhookDelivery } from "@/lib/webhooks/redeliver";
import { testWebhook } from "@/lib/webhooks/test-webhook";
import { updateWebhook } from "@/lib/webhooks/update-webhook";

// Webhook settings: admins only, whatever page rendered the form; the same domain functions as
// the API, whose errors name the field they are about.

const path = (orgId: string) => `/org/${orgId}/settings/webhooks`;

const webhookForm = z.object({ url: z.string(), events: z.array(z.string()), enabled: z.string().optional() });
const byId = z.object({ id: z.string() });

function formValues(formData: FormData): WebhookFormValues {
  return { url: String(formData.get("url") ?? ""), events: formData.getAll("events").map(String), enabled: formData.get("enabled") === "on" };
}

const admin = { minRole: "admin", returnTo: path } as const;
const shown = { values: formValues, fields: ["url", "events"] } as const;

export const createWebhookAction = orgAction({ ...admin, ...shown, input: webhookForm }, async ({ orgId, viewer }, input): Promise<WebhookFormState> => {
  await createWebhook({ viewer, url: input.url, events: input.events });
  revalidatePath(path(orgId));
  return { saved: Date.now() };
});

export const updateWebhookAction = orgAction(
  { ...admin, ...shown, input: webhookForm.extend(byId.shape) },
  async ({ orgId, viewer }, input): Promise<WebhookFormState> => {
    await updateWebhook({ viewer, webhookId: input.id, url: input.url, events: input.events, enabled: input.enabled === "on" });
    revalidatePath(path(orgId));
    return { saved: Date.now() };
  },
);

export const deleteWebhookAction = orgAction({ ...admin, input: byId }, async ({ orgId, viewer }, input): Promise<WebhookActionState> => {
  await deleteWebhook({ viewer, webhookId: input.id });
  revalidatePath(path(orgId));
  return { done: Date.now() };
});

export const testWebhookAction = orgAction({ ...admin, input: byId }, async ({ orgId, viewer }, input): Promise<WebhookActionState> => {
  const result = await testWebhook({ viewer, webhookId: input.id });
  revalidatePath(`${path(orgId)}/${input.id}`);
  return { test: { success: result.success, statusCode: result.status_code, error: result.error, deliveryId: result.delivery_id } };
});

export const redeliverAction = orgAction(
  { ...admin, input: z.object({ webhook_id: z.string(), delivery_id: z.string() }) },
  async ({ orgId, viewer }, input): Promise<WebhookActionState> => {
    await redeliverWebhookDelivery({ viewer, webhookId: input.webhook_id, deliveryId: input.delivery_id });
    revalidatePath(`${path(orgId)}/${input.webhook_id}`);
    return { done: Date.now() };
  },
);
