import { z } from "zod";
import { defineOperation } from "@/lib/api/operation";
import { pageQuery } from "@/lib/pagination";
import {
  createWebhookBody,
  deliveriesQuery,
  deliveryParams,
  updateWebhookBody,
  WebhookChangeResultSchema,
  WebhookDeliverySchema,
  WebhookSchema,
  WebhookSecretRotatedSchema,
  WebhookTestResultSchema,
  webhookParams,
} from "@/lib/webhooks/schemas";

// The webhook endpoints (spec section 4, D19-D21), served by app/api/v1/webhooks/**.

const tag = "Webhooks";
const beyond = "Addition beyond API 1.0.2 (not in the 1.0.2 specification).";

export const listWebhooksOperation = defineOperation({
  method: "GET",
  path: "/api/v1/webhooks",
  operationId: "listWebhooks",
  summary: "List the organization's webhooks, with their secrets and counters",
  tag,
  scope: "webhook:manage",
  query: pageQuery,
  responses: { 200: z.array(WebhookSchema) },
});

export const createWebhookOperation = defineOperation({
  method: "POST",
  path: "/api/v1/webhooks",
  operationId: "createWebhook",
  summary: "Create a webhook; the response carries its signing secret",
  description:
    "The URL must be https and resolve only to public addresses (D19, D24); a refused URL is 400 naming the reason, and nothing is connected to. At most 25 webhooks per organization (409 beyond).",
  tag,
  scope: "webhook:manage",
  body: createWebhookBody,
  responses: { 201: WebhookSchema },
  errors: { 409: "The organization already has 25 webhooks (or an Idempotency-Key conflict)" },
});

export const updateWebhookOperation = defineOperation({
  method: "PATCH",
  path: "/api/v1/webhooks/{webhookId}",
  operationId: "updateWebhook",
  summary: "Change a webhook's url, events or enabled flag (at least one)",
  description: "`enabled: false` pauses deliveries (pending retries stop before their next attempt) and keeps the configuration and secret.",
  tag,
  scope: "webhook:manage",
  params: webhookParams,
  body: updateWebhookBody,
  responses: { 200: WebhookChangeResultSchema },
});

export const deleteWebhookOperation = defineOperation({
  method: "DELETE",
  path: "/api/v1/webhooks/{webhookId}",
  operationId: "deleteWebhook",
  summary: "Delete a webhook: deliveries stop at once and the secret is invalidated",
  tag,
  scope: "webhook:manage",
  params: webhookParams,
  responses: { 200: WebhookChangeResultSchema },
});

export const testWebhookOperation = defineOperation({
  method: "POST",
  path: "/api/v1/webhooks/{webhookId}/test",
  operationId: "testWebhook",
  summary: "Send a signed webhook.test now and report the receiver's answer",
  description:
    "One attempt, 10 s limit, redirects not followed. `success` false with `status_code` null means the receiver was not reached (network, TLS, timeout, refused address). Test sends are logged as deliveries but do not change the counters.",
  tag,
  scope: "webhook:manage",
  params: webhookParams,
  responses: { 200: WebhookTestResultSchema },
});

export const listDeliveriesOperation = defineOperation({
  method: "GET",
  path: "/api/v1/webhooks/{webhookId}/deliveries",
  operationId: "listWebhookDeliveries",
  summary: "A webhook's delivery log (30 days), each delivery with its attempts",
  description: beyond,
  tag,
  scope: "webhook:manage",
  params: webhookParams,
  query: deliveriesQuery,
  responses: { 200: z.array(WebhookDeliverySchema) },
});

export const redeliverOperation = defineOperation({
  method: "POST",
  path: "/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver",
  operationId: "redeliverWebhookDelivery",
  summary: "Deliver a finished delivery again (a new series of 1 + 3 attempts, same delivery id)",
  description: `${beyond} The body is rebuilt with a fresh timestamp; the X-Webhook-Delivery-Id stays the same, so receivers that already processed it can ignore it.`,
  tag,
  scope: "webhook:manage",
  params: deliveryParams,
  responses: { 202: WebhookDeliverySchema },
  errors: { 409: "The delivery is still in progress, or the webhook is disabled" },
});

export const rotateWebhookSecretOperation = defineOperation({
  method: "POST",
  path: "/api/v1/webhooks/{webhookId}/rotate-secret",
  operationId: "rotateWebhookSecret",
  summary: "Give a webhook a new signing secret; the previous one keeps signing for 24 hours",
  description: `${beyond} Returns the new secret. For 24 hours every delivery carries the signatures of both secrets: \`X-Webhook-Signature\` with the new one and \`X-Webhook-Signature-Previous\` with the previous one, and two space-separated \`v1,\` signatures in \`webhook-signature\` (Standard Webhooks); then only the new one. Rotating again within the 24 hours ends the earlier grace period at once.`,
  tag,
  scope: "webhook:manage",
  params: webhookParams,
  responses: { 200: WebhookSecretRotatedSchema },
});

export const webhookOperations = [
  listWebhooksOperation,
  createWebhookOperation,
  updateWebhookOperation,
  deleteWebhookOperation,
  testWebhookOperation,
  rotateWebhookSecretOperation,
  listDeliveriesOperation,
  redeliverOperation,
] as const;
