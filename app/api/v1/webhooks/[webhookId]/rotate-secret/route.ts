import { apiRoute, json } from "@/lib/api";
import { rotateWebhookSecretOperation } from "@/lib/api/operations/webhooks";
import { rotateWebhookSecret } from "@/lib/webhooks/rotate-secret";

// POST /api/v1/webhooks/{webhookId}/rotate-secret - a new secret; the previous one signs for 24 hours more
export const POST = apiRoute(rotateWebhookSecretOperation, async ({ viewer, params }) =>
  json(await rotateWebhookSecret({ viewer, webhookId: params.webhookId })),
);
