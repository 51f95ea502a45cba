"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { resendPartnerPush } from "@/lib/partner/push";
import { updatePortal } from "@/lib/portals/update-portal";
import { orgAction } from "@/lib/web/org-action";
import type { FormState } from "@/lib/web/form-state";

export interface ResendState extends FormState {
  /** Bumped on each success. */
  done?: number;
}

// The file row's Resend (D26): members and admins; a new push window for a file whose push failed.
export const resendPartnerPushAction = orgAction(
  {
    minRole: "member",
    returnTo: (orgId) => `/org/${orgId}`,
    input: z.object({ portalId: z.string().uuid(), fileId: z.string().uuid() }),
  },
  async ({ orgId, viewer }, input): Promise<ResendState> => {
    await resendPartnerPush({ viewer, portalId: input.portalId, fileId: input.fileId });
    revalidatePath(`/org/${orgId}/vault/${input.portalId}`, "layout");
    return { done: Date.now() };
  },
);

export interface PartnerIdState extends FormState<{ partnerId: string }> {
  done?: number;
}

// The portal's partner id from the web: the same PATCH as the API (updatePortal), so the same
// checks (6 digits: 400, taken by another portal: 409), audit row and verification start. An empty
// field clears it (unlinked, and the partner gets portal.unlinked).
export const setPartnerIdAction = orgAction(
  {
    minRole: "member",
    returnTo: (orgId) => `/org/${orgId}`,
    input: z.object({ portalId: z.string().uuid(), partnerId: z.string().trim() }),
    fields: ["partnerId"],
    values: (formData) => ({ partnerId: String(formData.get("partnerId") ?? "") }),
  },
  async ({ orgId, viewer }, input): Promise<PartnerIdState> => {
    await updatePortal({ viewer, portalId: input.portalId, externalSystemIds: { partner: input.partnerId === "" ? null : input.partnerId } });
    revalidatePath(`/org/${orgId}/vault/${input.portalId}`, "layout");
    return { done: Date.now() };
  },
);
