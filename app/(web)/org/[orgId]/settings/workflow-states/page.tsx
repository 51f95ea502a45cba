import { ListChecks } from "lucide-react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/settings/action-form";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { listWorkflowStates } from "@/lib/workflow/list-workflow-states";
import { WORKFLOW_STATE_NAME_MAX } from "@/lib/workflow/manage-workflow-states";
import { addStateAction, moveStateAction, removeStateAction, renameStateAction } from "./actions";
import { SETTINGS_PAGES } from "@/components/settings/settings-pages";

export const metadata: Metadata = { title: SETTINGS_PAGES.workflowStates.name };

export default async function WorkflowStatesPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/workflow-states`);
  if (!viewer || !mayOrg(viewer, "manageWorkflowStates")) notFound();
  const states = await listWorkflowStates({ viewer });
  const add = addStateAction.bind(null, orgId);
  const rename = renameStateAction.bind(null, orgId);
  const move = moveStateAction.bind(null, orgId);
  const remove = removeStateAction.bind(null, orgId);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.workflowStates.name}</h1>
        <p className="mt-1 text-sm text-fg-muted">
          The stages a portal goes through, in this order in every list. A state in use by a portal cannot be removed.
        </p>
      </div>
      <Card title="Add a state">
        <ActionForm action={add} submitLabel="Add state" inline>
          <div className="min-w-56 flex-1">
            <Input label="Name" id="new-state-name" name="name" required maxLength={WORKFLOW_STATE_NAME_MAX} placeholder="e.g. In review" />
          </div>
        </ActionForm>
      </Card>
      {states.length === 0 ? (
        <EmptyState icon={ListChecks} title="No workflow states yet">
          Add the stages your portals go through, such as Onboarding, In review and Complete.
        </EmptyState>
      ) : (
        <ol className="divide-y divide-line-soft rounded-lg border border-line bg-surface" aria-label="Workflow states in order">
          {states.map((s, i) => (
            <li key={s.id} className="flex flex-wrap items-end gap-3 p-3" data-testid="workflow-state" aria-label={s.name}>
              <span className="w-6 self-center text-sm text-fg-subtle tabular-nums">{i + 1}.</span>
              <div className="min-w-48 flex-1">
                <ActionForm action={rename} submitLabel="Rename" variant="secondary" inline label={`Rename ${s.name}`}>
                  <input type="hidden" name="workflowStateId" value={s.id} />
                  <div className="flex-1">
                    <Input
                      label={`Name of ${s.name}`}
                      hideLabel
                      id={`state-${s.id}`}
                      name="name"
                      defaultValue={s.name}
                      required
                      maxLength={WORKFLOW_STATE_NAME_MAX}
                    />
                  </div>
                </ActionForm>
              </div>
              {/* One width whatever moves a row has, so every row's name field is as wide. */}
              <div className="flex flex-wrap items-end gap-2 sm:w-64 sm:justify-end">
                {i > 0 ? (
                  <ActionForm action={move} submitLabel="Move up" variant="ghost" inline label={`Move up ${s.name}`}>
                    <input type="hidden" name="workflowStateId" value={s.id} />
                    <input type="hidden" name="direction" value="up" />
                  </ActionForm>
                ) : null}
                {i < states.length - 1 ? (
                  <ActionForm action={move} submitLabel="Move down" variant="ghost" inline label={`Move down ${s.name}`}>
                    <input type="hidden" name="workflowStateId" value={s.id} />
                    <input type="hidden" name="direction" value="down" />
                  </ActionForm>
                ) : null}
                <ActionForm
                  action={remove}
                  submitLabel="Remove"
                  variant="danger"
                  inline
                  menu={`Actions for ${s.name}`}
                  confirm={{
                    title: `Remove the state “${s.name}”?`,
                    description: "It disappears from every list. A state still used by a portal is not removed: you are told which portals use it.",
                    confirmLabel: "Remove state",
                  }}
                >
                  <input type="hidden" name="workflowStateId" value={s.id} />
                </ActionForm>
              </div>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
