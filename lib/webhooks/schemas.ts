import { z } from "zod";
import { pageQuery } from "@/lib/pagination";
import { dateTime, pathId } from "@/lib/shared-schemas";
import { subscribableEventTypes } from "@/lib/events/types";

// Webhook requests and responses (spec sections 2 and 4, D19-D21), for parsing, response shaping
// and the OpenAPI document.

const webhookEventSchema = z.enum(subscribableEventTypes).meta({ description: "A subscribable event name" });

const urlSchema = z.string().trim().min(1, "is required").max(2000).meta({ format: "uri", description: "The receiver: https and a public address (D19)" });

const eventsSchema = z.array(webhookEventSchema).min(1, "must name at least one event").meta({ description: "Events to deliver; at least one" });

export const createWebhookBody = z.object({
  url: urlSchema,
  events: eventsSchema,
});

export const updateWebhookBody = z
  .object({
    url: urlSchema.optional(),
    events: eventsSchema.optional(),
    enabled: z.boolean().optional().meta({ description: "false pauses deliveries and keeps configuration and secret" }),
  })
  .refine((b) => b.url !== undefined || b.events !== undefined || b.enabled !== undefined, {
    message: "Provide at least one of url, events, enabled",
  });

export const webhookParams = z.object({ webhookId: pathId("Webhook") });
export const deliveryParams = z.object({ webhookId: pathId("Webhook"), deliveryId: pathId("Delivery") });

const deliveryStatusSchema = z.enum(["pending", "succeeded", "failed"]);
export const deliveriesQuery = pageQuery.extend({
  status: deliveryStatusSchema.optional().meta({ description: "Only deliveries in this state" }),
});

export const WebhookSchema = z
  .object({
    webhook_id: z.uuid(),
    org_id: z.uuid(),
    url: z.string().meta({ format: "uri" }),
    events: z.array(webhookEventSchema),
    secret: z.string().meta({ description: "Signing secret (HMAC-SHA256 key: its UTF-8 bytes)" }),
    enabled: z.boolean(),
    success_count: z.int().meta({ description: "Deliveries that ended in success" }),
    failure_count: z.int().meta({ description: "Deliveries that failed after every attempt" }),
    created_at: dateTime,
  })
  .meta({ id: "Webhook" });
export type WebhookBody = z.input<typeof WebhookSchema>;

export const WebhookChangeResultSchema = z.object({ success: z.boolean(), webhook_id: z.uuid() }).meta({ id: "WebhookChangeResult" });

export const WebhookSecretRotatedSchema = z
  .object({
    success: z.boolean(),
    webhook_id: z.uuid(),
    secret: z.string().meta({ description: "The new signing secret (the webhook's `secret` from now on)" }),
    previous_secret_expires_at: dateTime.meta({ description: "Until then deliveries also carry the previous secret's signatures" }),
  })
  .meta({ id: "WebhookSecretRotated" });

export const WebhookTestResultSchema = z
  .object({
    success: z.boolean().meta({ description: "The receiver answered 2xx within 10 s" }),
    status_code: z.int().nullable().meta({ description: "What the receiver returned; null when it never answered" }),
    delivery_id: z.uuid(),
    error: z.string().nullable().meta({ description: "Why it failed (network, TLS, timeout, HTTP status); null on success" }),
  })
  .meta({ id: "WebhookTestResult" });

const WebhookAttemptSchema = z
  .object({
    number: z.int().meta({ description: "1 for the first attempt; a redelivery continues the numbering" }),
    started_at: dateTime,
    duration_ms: z.int(),
    status_code: z.int().nullable(),
    success: z.boolean(),
    error: z.string().nullable(),
    response_body: z.string().nullable().meta({ description: "The first 1 KB of the response" }),
  })
  .meta({ id: "WebhookAttempt" });

export const WebhookDeliverySchema = z
  .object({
    delivery_id: z.uuid().meta({ description: "The X-Webhook-Delivery-Id of every attempt" }),
    webhook_id: z.uuid(),
    event: z.string().meta({ description: "Event name (webhook.test for test sends)" }),
    event_id: z.uuid().meta({ description: "The event_id of the payload" }),
    status: deliveryStatusSchema,
    attempt_count: z.int(),
    created_at: dateTime,
    completed_at: dateTime.nullable(),
    attempts: z.array(WebhookAttemptSchema),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDeliveryBody = z.input<typeof WebhookDeliverySchema>;
