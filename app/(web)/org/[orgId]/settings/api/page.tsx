import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ClientList } from "@/components/oauth/client-list";
import { CreateClientForm } from "@/components/oauth/create-client-form";
import { Card } from "@/components/ui/card";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { listOAuthClients } from "@/lib/oauth/clients/manage-client";
import { hasApiAccess } from "@/lib/oauth/clients/api-access";
import { createClientAction, deleteClientAction, rotateSecretAction, updateClientProfileAction } from "./actions";
import { SETTINGS_PAGES } from "@/components/settings/settings-pages";

export const metadata: Metadata = { title: SETTINGS_PAGES.api.name };

function Notice({ children }: { children: string }) {
  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold">{SETTINGS_PAGES.api.name}</h1>
      <Card>
        <p className="text-fg-2">{children}</p>
      </Card>
    </div>
  );
}

export default async function ApiSettingsPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/api`);
  // Settings do not apply to guests: not found for them, as for someone with no role at all.
  if (!viewer || !mayOrg(viewer, "openSettings")) notFound();
  if (!mayOrg(viewer, "manageOAuthClients")) return <Notice>Only administrators of this organization can manage API clients.</Notice>;
  if (!(await hasApiAccess(orgId))) {
    return <Notice>The API needs an enterprise plan with API access enabled. Contact us to enable API access for this organization.</Notice>;
  }
  const clients = await listOAuthClients({ viewer });

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.api.name}</h1>
        <p className="mt-1 text-sm text-fg-muted">
          OAuth clients let other software use the Client Portals API for this organization, with the scopes you allow. Members approve each app on a consent
          screen.
        </p>
      </div>
      <Card title="Create a client">
        <CreateClientForm action={createClientAction.bind(null, orgId)} />
      </Card>
      <Card title="Clients">
        <ClientList
          clients={clients}
          rotate={rotateSecretAction.bind(null, orgId)}
          remove={deleteClientAction.bind(null, orgId)}
          updateProfile={updateClientProfileAction.bind(null, orgId)}
        />
      </Card>
    </div>
  );
}
