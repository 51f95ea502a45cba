import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { WebhooksNotice } from "@/components/webhooks/notice";
import { RedeliverButton, SendTestButton } from "@/components/webhooks/webhook-actions";
import { Card } from "@/components/ui/card";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { isAppError } from "@/lib/errors";
import { getWebhook, listDeliveries, type DeliveryWithAttempts } from "@/lib/webhooks/deliveries";
import { redeliverAction, testWebhookAction } from "../actions";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Webhook deliveries" };

/** The latest deliveries shown; the API pages through the whole 30-day log. */
const SHOWN = 100;
function When({ date }: { date: Date }) {
  return <Time value={date} />;
}

const STATUS_STYLE = {
  pending: "bg-warning-tint text-warning",
  succeeded: "bg-success-tint text-success-strong",
  failed: "bg-danger-tint text-danger-strong",
} as const;

function Delivery({ orgId, delivery }: { orgId: string; delivery: DeliveryWithAttempts }) {
  return (
    <li className="rounded-md border border-line" data-testid="webhook-delivery" aria-label={`${delivery.eventType} ${delivery.id}`}>
      <details>
        <summary className="flex cursor-pointer flex-wrap items-center gap-3 p-3 text-sm">
          <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[delivery.status]}`}>{delivery.status}</span>
          <code className="font-medium">{delivery.eventType}</code>
          <When date={delivery.createdAt} />
          <span className="text-fg-muted">
            {delivery.attemptCount} attempt{delivery.attemptCount === 1 ? "" : "s"}
          </span>
        </summary>
        <div className="space-y-3 border-t border-line p-3">
          <p className="text-xs text-fg-muted">
            Delivery id (X-Webhook-Delivery-Id) <code>{delivery.id}</code>
            {delivery.eventId ? (
              <>
                {" "}
                · event id <code>{delivery.eventId}</code>
              </>
            ) : null}
          </p>
          {delivery.attempts.length === 0 ? (
            <p className="text-sm text-fg-muted">No attempt yet.</p>
          ) : (
            <table className="w-full text-left text-sm">
              <thead className="text-xs text-fg-muted">
                <tr>
                  <th className="py-1">#</th>
                  <th>Started</th>
                  <th>Status</th>
                  <th>Duration</th>
                  <th>Result</th>
                </tr>
              </thead>
              <tbody>
                {delivery.attempts.map((a) => (
                  <tr key={a.id} className="border-t border-line-soft align-top" data-testid="webhook-attempt">
                    <td className="py-1">{a.number}</td>
                    <td>
                      <When date={a.startedAt} />
                    </td>
                    <td>{a.statusCode ?? "—"}</td>
                    <td>{a.durationMs} ms</td>
                    <td>
                      {a.success ? "Delivered" : a.error}
                      {a.responseBody ? (
                        <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap break-all rounded bg-subtle p-2 text-xs">{a.responseBody}</pre>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {delivery.status !== "pending" ? (
            <RedeliverButton webhookId={delivery.webhookId} deliveryId={delivery.id} action={redeliverAction.bind(null, orgId)} />
          ) : null}
        </div>
      </details>
    </li>
  );
}

export default async function WebhookDeliveriesPage({ params }: { params: Promise<{ orgId: string; webhookId: string }> }) {
  const { orgId, webhookId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/webhooks/${webhookId}`);
  // Settings do not apply to guests: not found for them, as for someone with no role at all.
  if (!viewer || !mayOrg(viewer, "openSettings")) notFound();
  if (!mayOrg(viewer, "manageWebhooks")) return <WebhooksNotice>Only administrators of this organization can manage webhooks.</WebhooksNotice>;
  let webhook;
  try {
    webhook = await getWebhook({ viewer, webhookId });
  } catch (e) {
    if (isAppError(e) && e.code === "not_found") notFound();
    throw e;
  }
  const { items: deliveries } = await listDeliveries({ viewer, webhookId, newestFirst: true, limit: SHOWN });

  return (
    <div className="space-y-6">
      <div>
        <Link href={`/org/${orgId}/settings/webhooks`} className="text-sm text-brand-ink hover:underline">
          ← Webhooks
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">Delivery log</h1>
        <p className="mt-1 text-sm text-fg-muted">
          <code className="break-all">{webhook.url}</code> · {webhook.enabled ? "enabled" : "disabled"} · {webhook.successCount} succeeded,{" "}
          {webhook.failureCount} failed. Deliveries are kept 30 days; the latest {SHOWN} are shown.
        </p>
      </div>
      <Card>
        <SendTestButton webhookId={webhook.id} action={testWebhookAction.bind(null, orgId)} />
      </Card>
      <Card title="Deliveries">
        {deliveries.length === 0 ? (
          <p className="text-sm text-fg-muted">No deliveries yet.</p>
        ) : (
          <ul className="space-y-2">
            {deliveries.map((d) => (
              <Delivery key={d.id} orgId={orgId} delivery={d} />
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
