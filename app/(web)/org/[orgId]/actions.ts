"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { PortalActionState } from "@/components/portal-workspace/state";
import type { CreatePortalState } from "@/components/portals/create-portal-dialog";
import { createPortal } from "@/lib/portals/create-portal";
import { updatePortals, type PortalsChange } from "@/lib/portals/update-portals";
import { portalPath } from "@/lib/links";
import { orgAction } from "@/lib/web/org-action";

/** Creates a portal, blank or from a template (D8: business or enterprise), and opens it. */
export const createPortalAction = orgAction(
  {
    minRole: "member",
    returnTo: (orgId) => `/org/${orgId}`,
    input: z.object({ name: z.string(), templateId: z.string().optional(), kind: z.enum(["portal", "template"]).default("portal") }),
    values: (formData) => ({ name: String(formData.get("name") ?? "") }),
    fields: ["name", "templateId"],
  },
  async ({ orgId, viewer }, { name, templateId, kind }): Promise<CreatePortalState> => {
    const portal = await createPortal({ viewer, name, templateId: templateId || undefined, isTemplate: kind === "template" });
    redirect(portalPath(orgId, portal.id));
  },
);

const CHANGE_DONE: Record<PortalsChange["kind"], string> = { archive: "archived", restore: "restored", addTag: "tagged", workflowState: "moved" };

/**
 * One change for the portals selected in the list (archive, restore, add a tag, move to a workflow
 * state): updatePortals, one portal at a time through the same domain functions as the portal's
 * own header. The message names the portals it was refused for, with the reason.
 */
export const updatePortalsAction = orgAction(
  {
    minRole: "member",
    returnTo: (orgId) => `/org/${orgId}`,
    input: z.object({
      portal_ids: z.array(z.string()).default([]),
      kind: z.enum(["archive", "restore", "addTag", "workflowState"]),
      tag: z.string().default(""),
      workflowStateId: z.string().default(""),
      workflowStateName: z.string().default(""),
    }),
    fields: ["portal_ids", "tag", "workflowStateId"],
  },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    const change: PortalsChange =
      input.kind === "addTag"
        ? { kind: "addTag", tag: input.tag }
        : input.kind === "workflowState"
          ? { kind: "workflowState", workflowStateId: input.workflowStateId, workflowStateName: input.workflowStateName }
          : { kind: input.kind };
    const { changed, failed } = await updatePortals({ viewer, portalIds: input.portal_ids, change });
    revalidatePath(`/org/${orgId}`);
    const done = `${changed} portal${changed === 1 ? "" : "s"} ${CHANGE_DONE[change.kind]}`;
    if (failed.length === 0) return { done: Date.now(), message: done };
    const refused = failed.map((f) => `${f.name}: ${f.message}`).join("; ");
    return { done: Date.now(), error: `${done}; not changed: ${refused}` };
  },
);
