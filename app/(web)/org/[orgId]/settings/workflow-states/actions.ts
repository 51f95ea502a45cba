"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { SettingsState } from "@/components/settings/action-form";
import { listWorkflowStates } from "@/lib/workflow/list-workflow-states";
import { addWorkflowState, removeWorkflowState, renameWorkflowState, reorderWorkflowStates } from "@/lib/workflow/manage-workflow-states";
import { orgAction } from "@/lib/web/org-action";

const path = (orgId: string) => `/org/${orgId}/settings/workflow-states`;
const admin = { minRole: "admin", returnTo: path } as const;

export const addStateAction = orgAction(
  { ...admin, input: z.object({ name: z.string() }), fields: ["name"] },
  async ({ orgId, viewer }, { name }): Promise<SettingsState> => {
    const state = await addWorkflowState({ viewer, name });
    revalidatePath(path(orgId));
    return { done: `Added “${state.name}”.` };
  },
);

export const renameStateAction = orgAction(
  { ...admin, input: z.object({ workflowStateId: z.string(), name: z.string() }) },
  async ({ orgId, viewer }, input): Promise<SettingsState> => {
    await renameWorkflowState({ viewer, ...input });
    revalidatePath(path(orgId));
    return { done: "Renamed." };
  },
);

/** Moves one state a place up or down: the whole new order is sent (reorderWorkflowStates wants every id). */
export const moveStateAction = orgAction(
  { ...admin, input: z.object({ workflowStateId: z.string(), direction: z.enum(["up", "down"]) }) },
  async ({ orgId, viewer }, { workflowStateId, direction }): Promise<SettingsState> => {
    const ids = (await listWorkflowStates({ viewer })).map((s) => s.id);
    const at = ids.indexOf(workflowStateId);
    const to = direction === "up" ? at - 1 : at + 1;
    if (at < 0 || to < 0 || to >= ids.length) return { error: "This state cannot move further. Reload the page to see the current order." };
    [ids[at], ids[to]] = [ids[to]!, ids[at]!];
    await reorderWorkflowStates({ viewer, workflowStateIds: ids });
    revalidatePath(path(orgId));
    return {};
  },
);

export const removeStateAction = orgAction(
  { ...admin, input: z.object({ workflowStateId: z.string() }) },
  async ({ orgId, viewer }, input): Promise<SettingsState> => {
    await removeWorkflowState({ viewer, ...input });
    revalidatePath(path(orgId));
    return { done: "Removed." };
  },
);
