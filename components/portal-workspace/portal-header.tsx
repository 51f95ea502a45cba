import { Archive, KeyRound, LayoutTemplate } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { PortalRecord } from "@/lib/portals/portal-record";
import { ArchiveToggle } from "./archive-toggle";
import type { BoundAction } from "./state";
import { TagsEditor } from "./tags-editor";
import { WorkflowSelect } from "./workflow-select";

/**
 * The portal's header on every tab: name, workflow state, tags, archive/restore and the external
 * system ids (read-only: they are set through the API). Wraps on a phone.
 */
export function PortalHeader({
  portal,
  states,
  actions,
  badge,
}: {
  portal: PortalRecord;
  states: { id: string; name: string }[];
  actions: { setWorkflowState: BoundAction; setTags: BoundAction; setArchived: BoundAction };
  /** The partner-link badge slot (wired by the layout when the organization has the integration). */
  badge?: React.ReactNode;
}) {
  const externalIds = Object.entries(portal.externalSystemIds);
  return (
    <header className="space-y-4" data-testid="portal-header">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-semibold break-words" data-testid="portal-name">
              {portal.name}
            </h1>
            {portal.archived ? (
              <Badge tone="warning">
                <Archive aria-hidden size={12} className="mr-1 inline" />
                Archived
              </Badge>
            ) : null}
            {portal.isTemplate ? (
              <Badge tone="info">
                <LayoutTemplate aria-hidden size={12} className="mr-1 inline" />
                Template
              </Badge>
            ) : null}
            {badge}
          </div>
          {portal.isTemplate ? (
            <p className="text-sm text-fg-muted">
              New portals started from this template get its folders, tags, workflow state and request list; its PDFs can be sent for signature in requests.
            </p>
          ) : null}
          {externalIds.length > 0 ? (
            <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-fg-muted" aria-label="External system ids" data-testid="external-ids">
              {externalIds.map(([system, value]) => (
                <div key={system} className="inline-flex items-center gap-1">
                  <KeyRound aria-hidden size={12} />
                  <dt className="font-medium">{system}</dt>
                  <dd className="font-mono break-all">{value}</dd>
                </div>
              ))}
            </dl>
          ) : null}
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <WorkflowSelect portalId={portal.id} current={portal.workflowState} states={states} action={actions.setWorkflowState} />
          <ArchiveToggle portalId={portal.id} name={portal.name} archived={portal.archived} action={actions.setArchived} />
        </div>
      </div>
      <TagsEditor portalId={portal.id} tags={portal.tags} action={actions.setTags} />
    </header>
  );
}
