import { apiRoute, json, linkHeader } from "@/lib/api";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { createWebhookOperation, listWebhooksOperation } from "@/lib/api/operations/webhooks";
import { toWebhook } from "@/lib/webhooks/to-webhook";

// GET /api/v1/webhooks - the organization's webhooks, secrets and counters included
export const GET = apiRoute(listWebhooksOperation, async ({ viewer, query, url }) => {
  const { items, next } = await listWebhooks({ viewer, cursor: query.cursor, limit: query.limit });
  return json(items.map(toWebhook), 200, linkHeader(url, next));
});

// POST /api/v1/webhooks - create a webhook (201 with its secret)
export const POST = apiRoute(createWebhookOperation, async ({ viewer, body }) => json(await createWebhook({ viewer, ...body }), 201));
