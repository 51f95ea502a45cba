import { apiRoute, json } from "@/lib/api";
import { testWebhookOperation } from "@/lib/api/operations/webhooks";
import { testWebhook } from "@/lib/webhooks/test-webhook";

// POST /api/v1/webhooks/{webhookId}/test - send a signed webhook.test now
export const POST = apiRoute(testWebhookOperation, async ({ viewer, params }) => json(await testWebhook({ viewer, webhookId: params.webhookId })));
