import { apiRoute, json, paginate } from "@/lib/api";
import { createWebhook } from "@/lib/webhooks/create-webhook";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { createWebhookOperation, listWebhooksOperation } from "@/lib/webhooks/operations";
import { toWebhook } from "@/lib/webhooks/to-webhook";

// GET /api/v1/webhooks - the organization's webhooks, secrets and counters included
export const GET = apiRoute(listWebhooksOperation, async ({ auth, query, url }) => {
  const rows = await listWebhooks({ orgId: auth.orgId, cursor: query.cursor, take: query.limit + 1 });
  const { items, headers } = paginate(rows, query.limit, url);
  return json(items.map(toWebhook), 200, headers);
});

// POST /api/v1/webhooks - create a webhook (201 with its secret)
export const POST = apiRoute(createWebhookOperation, async ({ auth, body }) =>
  json(await createWebhook({ orgId: auth.orgId, actor: auth.actor, ...body }), 201),
);
