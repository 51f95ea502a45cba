"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { PortalActionState } from "@/components/portal-workspace/state";
import { deletePortal } from "@/lib/portals/delete-portal";
import { MAX_NAME_LENGTH } from "@/lib/portals/limits";
import { portalPath } from "@/lib/links";
import { setResponsibleMember } from "@/lib/portals/responsible-member";
import { updatePortal } from "@/lib/portals/update-portal";
import { orgAction } from "@/lib/web/org-action";

// The portal header and its settings: the same domain functions as PATCH /portals/{id} and
// POST /portals/{id}/workflow, so the same audit rows and events (portal.workflow_changed).

const member = { minRole: "member", returnTo: (orgId: string) => `/org/${orgId}` } as const;
const byPortal = z.object({ portalId: z.string() });
const portalLayout = (orgId: string, portalId: string) => revalidatePath(`/org/${orgId}/vault/${portalId}`, "layout");

export const setWorkflowStateAction = orgAction(
  {
    ...member,
    input: byPortal.extend({ workflowStateId: z.string().min(1, "Choose a workflow state"), workflowStateName: z.string() }),
    fields: ["workflowStateId"],
  },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    await updatePortal({ viewer, portalId: input.portalId, workflowStateId: input.workflowStateId, workflowStateName: input.workflowStateName });
    portalLayout(orgId, input.portalId);
    return { done: Date.now() };
  },
);

/** The portal's name (settings tab): updatePortal as PATCH /portals/{id} does it, one portal.renamed audit row. */
export const renamePortalAction = orgAction(
  {
    ...member,
    input: byPortal.extend({
      name: z.string().trim().min(1, "Type a name for the portal").max(MAX_NAME_LENGTH, `A portal name has at most ${MAX_NAME_LENGTH} characters`),
    }),
    fields: ["name"],
  },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    const portal = await updatePortal({ viewer, portalId: input.portalId, name: input.name });
    portalLayout(orgId, input.portalId);
    revalidatePath(`/org/${orgId}`);
    return { done: Date.now(), message: `Renamed to "${portal.name}"` };
  },
);

export const setTagsAction = orgAction(
  { ...member, input: byPortal.extend({ tags: z.array(z.string()) }), fields: ["tags"] },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    await updatePortal({ viewer, portalId: input.portalId, tags: input.tags });
    portalLayout(orgId, input.portalId);
    return { done: Date.now() };
  },
);

export const setArchivedAction = orgAction(
  { ...member, input: byPortal.extend({ archived: z.enum(["true", "false"]) }) },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    await updatePortal({ viewer, portalId: input.portalId, archived: input.archived === "true" });
    portalLayout(orgId, input.portalId);
    revalidatePath(`/org/${orgId}`);
    return { done: Date.now() };
  },
);

/** The portal's responsible member (settings tab; "" for nobody), shown in the portal list. */
export const setResponsibleAction = orgAction(
  { ...member, input: byPortal.extend({ responsibleMemberId: z.string() }), fields: ["responsibleMemberId"] },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    const { responsible } = await setResponsibleMember({ viewer, portalId: input.portalId, memberId: input.responsibleMemberId || null });
    portalLayout(orgId, input.portalId);
    revalidatePath(`/org/${orgId}`);
    return {
      done: Date.now(),
      message: responsible ? `${responsible.name ?? responsible.email} is responsible for this portal` : "Nobody is responsible for this portal",
    };
  },
);

/** Permanent delete (admins): the caller lands on the portal list; the portal's pages are gone. */
export const deletePortalAction = orgAction(
  { minRole: "admin", returnTo: (orgId) => `/org/${orgId}`, input: byPortal.extend({ confirmName: z.string() }), fields: ["confirmName"] },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    const deleted = await deletePortal({ viewer, portalId: input.portalId, confirmName: input.confirmName });
    revalidatePath(`/org/${orgId}`);
    revalidatePath(portalPath(orgId, input.portalId));
    return { done: Date.now(), message: `"${deleted.name}" was deleted with its ${deleted.objects} stored file${deleted.objects === 1 ? "" : "s"}` };
  },
);
