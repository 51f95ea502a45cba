import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/settings/action-form";
import { Card } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { getOrgProfile } from "@/lib/organization/profile";
import { guestDefaultsAction } from "./actions";
import { SETTINGS_PAGES } from "@/components/settings/settings-pages";

export const metadata: Metadata = { title: SETTINGS_PAGES.guestDefaults.name };

const PERMISSIONS = [
  { name: "view", label: "View the portal", hint: "Without it the guest cannot open the portal at all." },
  { name: "upload", label: "Upload files" },
  { name: "download", label: "Download files" },
  { name: "deleteOwnUploads", label: "Delete their own uploads" },
] as const;

export default async function GuestDefaultsPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/guest-defaults`);
  if (!viewer || !mayOrg(viewer, "manageOrganization")) notFound();
  const { defaultGuestPermissions: current } = await getOrgProfile({ viewer });

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.guestDefaults.name}</h1>
        <p className="mt-1 text-sm text-fg-muted">
          What a guest may do in a portal when first invited to it. Changing them does not change guests already invited.
        </p>
      </div>
      <Card>
        <ActionForm action={guestDefaultsAction.bind(null, orgId)} submitLabel="Save defaults">
          <fieldset className="space-y-3">
            <legend className="sr-only">Permissions of newly invited guests</legend>
            {PERMISSIONS.map((p) => (
              <Checkbox
                key={p.name}
                id={`guest-default-${p.name}`}
                name={p.name}
                label={p.label}
                description={"hint" in p ? p.hint : undefined}
                defaultChecked={current[p.name]}
              />
            ))}
          </fieldset>
        </ActionForm>
      </Card>
    </div>
  );
}
