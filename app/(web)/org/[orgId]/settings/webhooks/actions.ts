"use server";

import { revalidatePath } from "next/cache";
import type { WebhookActionState, WebhookFormState, WebhookFormValues } from "@/components/webhooks/state";
import { getWebViewer } from "@/lib/access/web-viewer";
import { isAppError } from "@/lib/errors";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/webhooks/delete-webhook";
import { redeliverWebhookDelivery } from "@/lib/webhooks/redeliver";
import { testWebhook } from "@/lib/webhooks/test-webhook";
import { updateWebhook } from "@/lib/webhooks/update-webhook";

// Webhook settings: the same domain functions as the API, which refuse anyone but an admin
// (lib/access), whatever page rendered the form.

const path = (orgId: string) => `/org/${orgId}/settings/webhooks`;

function formValues(formData: FormData): WebhookFormValues {
  return { url: String(formData.get("url") ?? ""), events: formData.getAll("events").map(String), enabled: formData.get("enabled") === "on" };
}

/** Domain messages name API fields (`events: must name at least one event`); the form says it plainly. */
function message(e: { message: string }): string {
  return e.message.replace(/^events(\.\d+)?: /, "Events: ").replace(/^url: /, "URL refused: ");
}

export async function createWebhookAction(orgId: string, _prev: WebhookFormState, formData: FormData): Promise<WebhookFormState> {
  const values = formValues(formData);
  try {
    const viewer = await getWebViewer(orgId, path(orgId));
    await createWebhook({ viewer, url: values.url, events: values.events });
    revalidatePath(path(orgId));
    return { saved: Date.now() };
  } catch (e) {
    if (isAppError(e)) return { error: message(e), values };
    throw e;
  }
}

export async function updateWebhookAction(orgId: string, _prev: WebhookFormState, formData: FormData): Promise<WebhookFormState> {
  const values = formValues(formData);
  try {
    const viewer = await getWebViewer(orgId, path(orgId));
    await updateWebhook({ viewer, webhookId: String(formData.get("id") ?? ""), ...values });
    revalidatePath(path(orgId));
    return { saved: Date.now() };
  } catch (e) {
    if (isAppError(e)) return { error: message(e), values };
    throw e;
  }
}

export async function deleteWebhookAction(orgId: string, _prev: WebhookActionState, formData: FormData): Promise<WebhookActionState> {
  try {
    const viewer = await getWebViewer(orgId, path(orgId));
    await deleteWebhook({ viewer, webhookId: String(formData.get("id") ?? "") });
    revalidatePath(path(orgId));
    return { done: Date.now() };
  } catch (e) {
    if (isAppError(e)) return { error: e.message };
    throw e;
  }
}

export async function testWebhookAction(orgId: string, _prev: WebhookActionState, formData: FormData): Promise<WebhookActionState> {
  try {
    const viewer = await getWebViewer(orgId, path(orgId));
    const webhookId = String(formData.get("id") ?? "");
    const result = await testWebhook({ viewer, webhookId });
    revalidatePath(`${path(orgId)}/${webhookId}`);
    return { test: { success: result.success, statusCode: result.status_code, error: result.error, deliveryId: result.delivery_id } };
  } catch (e) {
    if (isAppError(e)) return { error: message(e) };
    throw e;
  }
}

export async function redeliverAction(orgId: string, _prev: WebhookActionState, formData: FormData): Promise<WebhookActionState> {
  try {
    const viewer = await getWebViewer(orgId, path(orgId));
    const webhookId = String(formData.get("webhook_id") ?? "");
    await redeliverWebhookDelivery({ viewer, webhookId, deliveryId: String(formData.get("delivery_id") ?? "") });
    revalidatePath(`${path(orgId)}/${webhookId}`);
    return { done: Date.now() };
  } catch (e) {
    if (isAppError(e)) return { error: e.message };
    throw e;
  }
}
