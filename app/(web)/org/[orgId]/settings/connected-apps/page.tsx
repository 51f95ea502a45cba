import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { RevokeGrant } from "@/components/oauth/revoke-grant";
import { Card } from "@/components/ui/card";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { listUserGrants } from "@/lib/oauth/grants";
import { revokeGrantAction } from "./actions";
import { Time } from "@/components/ui/time";
import { SETTINGS_PAGES } from "@/components/settings/settings-pages";

export const metadata: Metadata = { title: SETTINGS_PAGES.connectedApps.name };

export default async function ConnectedAppsPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/connected-apps`);
  // Settings do not apply to guests: not found for them, as for someone with no role at all.
  if (!viewer || !mayOrg(viewer, "openSettings")) notFound();
  // Grants act in an organization, so the page lists those of the organization being viewed.
  const grants = (await listUserGrants({ userId: viewer.userId })).filter((g) => g.orgId === orgId);
  const revoke = revokeGrantAction.bind(null, orgId);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.connectedApps.name}</h1>
        <p className="mt-1 text-sm text-fg-muted">
          Apps you have allowed to use Client Portals on your behalf in this organization. Revoking one stops its access at once.
        </p>
      </div>
      <Card>
        {grants.length === 0 ? (
          <p className="text-sm text-fg-muted">You have not connected any apps.</p>
        ) : (
          <ul className="divide-y divide-line-soft">
            {grants.map((g) => (
              <li key={g.id} className="flex flex-wrap items-center justify-between gap-4 py-3" data-testid="connected-app" aria-label={g.clientName}>
                <div className="text-sm">
                  <p className="font-semibold">{g.clientName}</p>
                  <p>
                    <code data-testid="grant-scopes">{g.scopes.join(" ")}</code>
                  </p>
                  <p className="text-fg-muted">
                    Connected <Time value={g.createdAt} format="date" />
                    {g.lastUsedAt ? (
                      <>
                        , last used <Time value={g.lastUsedAt} format="relative" />
                      </>
                    ) : null}
                  </p>
                </div>
                <RevokeGrant grantId={g.id} appName={g.clientName} action={revoke} />
              </li>
            ))}
          </ul>
        )}
      </Card>
    </div>
  );
}
