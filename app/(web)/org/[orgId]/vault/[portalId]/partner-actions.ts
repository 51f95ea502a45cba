"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { resendPartnerPush } from "@/lib/partner/push";
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
