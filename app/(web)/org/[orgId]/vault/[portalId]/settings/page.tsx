import { KeyRound } from "lucide-react";
import { notFound } from "next/navigation";
import { DeletePortalButton } from "@/components/portal-workspace/delete-portal";
import { RenamePortalForm } from "@/components/portal-workspace/rename-portal-form";
import { ResponsibleForm } from "@/components/portal-workspace/responsible-form";
import { TagsEditor } from "@/components/portal-workspace/tags-editor";
import { mayOrg } from "@/lib/access/policy";
import { getResponsibleChoice } from "@/lib/portals/responsible-member";
import { loadMemberPortal, tabMetadata } from "../load-portal";
import { deletePortalAction, renamePortalAction, setResponsibleAction, setTagsAction } from "../portal-actions";

export const generateMetadata = tabMetadata("Settings");

type Params = { orgId: string; portalId: string };

/**
 * The portal's settings (admins only; others get not-found): its name and tags, through the same
 * domain function as PATCH /portals/{id}; the member responsible for it; its external system ids, shown read-only (the systems
 * that own them set them through the API); and the permanent delete.
 */
export default async function PortalSettingsPage({ params }: { params: Promise<Params> }) {
  const { orgId, portalId } = await params;
  const { viewer, portal } = await loadMemberPortal(orgId, portalId);
  if (!mayOrg(viewer, "deletePortal")) notFound();
  const externalIds = Object.entries(portal.externalSystemIds);
  const responsible = await getResponsibleChoice({ viewer, portalId });

  return (
    <section aria-labelledby="settings-heading" className="max-w-2xl space-y-6">
      <h2 id="settings-heading" className="text-lg font-semibold">
        Settings
      </h2>
      <div className="space-y-3 rounded-lg border border-line bg-surface p-4">
        <h3 className="font-semibold">Name and tags</h3>
        <RenamePortalForm key={portal.name} portalId={portalId} name={portal.name} action={renamePortalAction.bind(null, orgId)} />
        <TagsEditor idPrefix="settings-" portalId={portalId} tags={portal.tags} action={setTagsAction.bind(null, orgId)} />
      </div>
      <div className="space-y-3 rounded-lg border border-line bg-surface p-4">
        <h3 className="font-semibold">Responsible member</h3>
        <p className="text-sm text-fg-muted">Who at the firm looks after this portal; the portal list shows them beside it.</p>
        <ResponsibleForm portalId={portalId} current={responsible.current} options={responsible.options} action={setResponsibleAction.bind(null, orgId)} />
      </div>
      <div className="space-y-2 rounded-lg border border-line bg-surface p-4" data-testid="settings-external-ids">
        <h3 className="font-semibold">External system ids</h3>
        <p className="text-sm text-fg-muted">
          Set by the systems linked to this portal through the API (<code className="break-all">PATCH /api/v1/portals/{"{id}"}</code>,{" "}
          <code>externalSystemIds</code>); shown here to read.
        </p>
        {externalIds.length === 0 ? (
          <p className="text-sm text-fg-muted">None yet.</p>
        ) : (
          <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
            {externalIds.map(([system, value]) => (
              <div key={system} className="contents">
                <dt className="inline-flex items-center gap-1 font-medium text-fg-2">
                  <KeyRound aria-hidden size={14} />
                  {system}
                </dt>
                <dd className="font-mono break-all text-fg">{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </div>
      <div className="rounded-lg border border-danger-line bg-surface p-4">
        <h3 className="font-semibold text-danger-strong">Delete this portal</h3>
        <p className="mt-1 mb-4 max-w-prose text-sm text-fg-2">
          Removes the portal for good, with its stored files, tasks and guests. To keep it out of the way instead, archive it from the header: an archived
          portal can be restored.
        </p>
        <DeletePortalButton portalId={portalId} name={portal.name} action={deletePortalAction.bind(null, orgId)} listPath={`/org/${orgId}`} />
      </div>
    </section>
  );
}
