import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { PartnerConnectForm, PartnerDisconnectForm } from "@/components/partner/partner-settings";
import { Card } from "@/components/ui/card";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { getPartnerConnection } from "@/lib/partner/connection";
import { connectPartnerAction, disconnectPartnerAction, testPartnerAction } from "./actions";
import { Time } from "@/components/ui/time";
import { SETTINGS_PAGES } from "@/components/settings/settings-pages";

export const metadata: Metadata = { title: SETTINGS_PAGES.partner.name };

export default async function PartnerSettingsPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/partner`);
  // Settings do not apply to guests: not found for them, as for someone with no role at all.
  if (!viewer || !mayOrg(viewer, "openSettings")) notFound();
  if (!mayOrg(viewer, "managePartner")) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.partner.name}</h1>
        <p className="text-sm text-fg-muted">Only administrators of this organization can manage the partner integration.</p>
      </div>
    );
  }
  const status = await getPartnerConnection({ viewer });

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.partner.name}</h1>
        <p className="mt-1 text-sm text-fg-muted">
          Once connected, a portal whose <strong>partner</strong> id (6 digits) is set is linked to that customer at the partner, and every uploaded file and
          signed PDF of the portal is sent there, with task and workflow changes as notices. Failed sends are retried for 24 hours.
        </p>
      </div>
      <Card title="Status">
        {status.connected ? (
          <div className="space-y-4" data-testid="partner-status">
            <p className="flex items-center gap-2 text-sm">
              <span className="rounded-full bg-success-tint px-2 py-0.5 text-xs font-medium text-success-strong">Connected</span>
              <span className="break-all">
                to <code>{status.apiUrl}</code>
              </span>
            </p>
            <dl className="grid grid-cols-[8rem_1fr] gap-x-4 gap-y-1 text-sm">
              <dt className="text-fg-muted">API key</dt>
              <dd>ending in {status.apiKeyHint}</dd>
              <dt className="text-fg-muted">Connected</dt>
              <dd>{status.connectedAt ? <Time value={status.connectedAt} /> : null}</dd>
            </dl>
            <PartnerDisconnectForm disconnect={disconnectPartnerAction.bind(null, orgId)} />
          </div>
        ) : (
          <p className="text-sm text-fg-muted" data-testid="partner-status">
            <span className="mr-2 rounded-full bg-track px-2 py-0.5 text-xs font-medium text-fg-2">Not connected</span>
            Enter the API key the partner gave you below, test it, then connect.
          </p>
        )}
      </Card>
      <Card title={status.connected ? "Change credentials" : "Connect"}>
        <PartnerConnectForm
          test={testPartnerAction.bind(null, orgId)}
          connect={connectPartnerAction.bind(null, orgId)}
          defaultApiUrl={status.apiUrl ?? status.defaultApiUrl ?? ""}
          connected={status.connected}
        />
      </Card>
    </div>
  );
}
