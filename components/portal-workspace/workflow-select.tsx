"use client";

import { Select } from "@/components/ui/select";
import type { BoundAction } from "./state";
import { useRunAction } from "./use-run-action";

/** The portal's workflow state; choosing one moves the portal there (portal.workflow_changed). */
export function WorkflowSelect({
  portalId,
  current,
  states,
  action,
}: {
  portalId: string;
  current: { id: string; name: string } | null;
  states: { id: string; name: string }[];
  action: BoundAction;
}) {
  const { run, pending } = useRunAction(action);
  if (states.length === 0) {
    return <p className="text-sm text-fg-muted">No workflow states yet: an admin adds them in the organization settings.</p>;
  }
  return (
    <div className="w-56 max-w-full">
      <Select
        id="workflow-state"
        label="Workflow state"
        value={current?.id ?? ""}
        disabled={pending}
        placeholder={current ? undefined : "No workflow state"}
        options={states.map((s) => ({ value: s.id, label: s.name }))}
        onChange={(e) => {
          const state = states.find((s) => s.id === e.target.value);
          if (state) void run({ portalId, workflowStateId: state.id, workflowStateName: state.name }, `Moved to ${state.name}`);
        }}
        data-testid="workflow-select"
      />
    </div>
  );
}
