import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/oauth/copy-button";
import { WebhooksNotice } from "@/components/webhooks/notice";
import { WebhookActions } from "@/components/webhooks/webhook-actions";
import { WebhookForm } from "@/components/webhooks/webhook-form";
import { Card } from "@/components/ui/card";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { hasApiAccess } from "@/lib/oauth/clients/api-access";
import { MAX_WEBHOOKS_PER_ORG } from "@/lib/webhooks/config";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { toWebhook } from "@/lib/webhooks/to-webhook";
import { createWebhookAction, deleteWebhookAction, testWebhookAction, updateWebhookAction } from "./actions";
import { Time } from "@/components/ui/time";
import { SETTINGS_PAGES } from "@/components/settings/settings-pages";

export const metadata: Metadata = { title: SETTINGS_PAGES.webhooks.name };

export default async function WebhooksPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/webhooks`);
  // Settings do not apply to guests: not found for them, as for someone with no role at all.
  if (!viewer || !mayOrg(viewer, "openSettings")) notFound();
  if (!mayOrg(viewer, "manageWebhooks")) return <WebhooksNotice>Only administrators of this organization can manage webhooks.</WebhooksNotice>;
  if (!(await hasApiAccess(orgId))) {
    return <WebhooksNotice>Webhooks come with the API, which needs an enterprise plan with API access enabled.</WebhooksNotice>;
  }
  const webhooks = (await listWebhooks({ viewer })).items.map(toWebhook);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.webhooks.name}</h1>
        <p className="mt-1 text-sm text-fg-muted">
          Client Portals POSTs a signed JSON body to each endpoint for the events it subscribes to, retrying a failed delivery 3 times (after 30 s, 2 min and 8
          min). Verify the <code>X-Webhook-Signature</code> header: the lowercase hex HMAC-SHA256 of the raw body, keyed with the signing secret. At most{" "}
          {MAX_WEBHOOKS_PER_ORG} webhooks.
        </p>
      </div>
      <Card title="Add a webhook">
        <WebhookForm action={createWebhookAction.bind(null, orgId)} initial={{ url: "", events: [], enabled: true }} submitLabel="Add webhook" />
      </Card>
      <Card title="Endpoints">
        {webhooks.length === 0 ? (
          <p className="text-sm text-fg-muted">No webhooks yet.</p>
        ) : (
          <ul className="space-y-4">
            {webhooks.map((w) => (
              <li key={w.webhook_id} className="space-y-3 rounded-md border border-line p-4" data-testid="webhook" aria-label={w.url}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <code className="break-all font-semibold">{w.url}</code>
                  <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${w.enabled ? "bg-success-tint text-success-strong" : "bg-track text-fg-2"}`}>
                    {w.enabled ? "Enabled" : "Disabled"}
                  </span>
                </div>
                <dl className="grid grid-cols-[9rem_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-fg-muted">Events</dt>
                  <dd>
                    <code>{w.events.join(" ")}</code>
                  </dd>
                  <dt className="text-fg-muted">Deliveries</dt>
                  <dd data-testid="webhook-counters">
                    {w.success_count} succeeded, {w.failure_count} failed
                  </dd>
                  <dt className="text-fg-muted">Created</dt>
                  <dd>
                    <Time value={w.created_at} format="date" />
                  </dd>
                  <dt className="text-fg-muted">Signing secret</dt>
                  <dd>
                    <details>
                      <summary className="cursor-pointer text-brand-ink">Show</summary>
                      <div className="mt-1 flex flex-wrap items-center gap-2">
                        <code className="break-all" data-testid="webhook-secret">
                          {w.secret}
                        </code>
                        <CopyButton value={w.secret} label={`Copy the signing secret of ${w.url}`} />
                      </div>
                    </details>
                  </dd>
                </dl>
                <Link href={`/org/${orgId}/settings/webhooks/${w.webhook_id}`} className="text-sm text-brand-ink hover:underline">
                  Delivery log
                </Link>
                <WebhookActions
                  webhookId={w.webhook_id}
                  url={w.url}
                  values={{ url: w.url, events: w.events, enabled: w.enabled }}
                  test={testWebhookAction.bind(null, orgId)}
                  update={updateWebhookAction.bind(null, orgId)}
                  remove={deleteWebhookAction.bind(null, orgId)}
                />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
