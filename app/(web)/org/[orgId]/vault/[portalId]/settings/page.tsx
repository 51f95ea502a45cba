import { notFound } from "next/navigation";
import { DeletePortalButton } from "@/components/portal-workspace/delete-portal";
import { mayOrg } from "@/lib/access/policy";
import { loadMemberPortal, tabMetadata } from "../load-portal";
import { deletePortalAction } from "../portal-actions";

export const generateMetadata = tabMetadata("Settings");

type Params = { orgId: string; portalId: string };

/** The portal's settings: admins only (others get not-found); for now, the permanent delete. */
export default async function PortalSettingsPage({ params }: { params: Promise<Params> }) {
  const { orgId, portalId } = await params;
  const { viewer, portal } = await loadMemberPortal(orgId, portalId);
  if (!mayOrg(viewer, "deletePortal")) notFound();

  return (
    <section aria-labelledby="settings-heading" className="space-y-4">
      <h2 id="settings-heading" className="text-lg font-semibold">
        Settings
      </h2>
      <div className="rounded-lg border border-red-200 bg-white p-4">
        <h3 className="font-semibold text-red-800">Delete this portal</h3>
        <p className="mt-1 mb-4 max-w-prose text-sm text-slate-700">
          Removes the portal for good, with its stored files, tasks and guests. To keep it out of the way instead, archive it from the header: an archived
          portal can be restored.
        </p>
        <DeletePortalButton portalId={portalId} name={portal.name} action={deletePortalAction.bind(null, orgId)} listPath={`/org/${orgId}`} />
      </div>
    </section>
  );
}
