"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { CreatePortalState } from "@/components/portals/create-portal-dialog";
import { createPortal } from "@/lib/portals/create-portal";
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
