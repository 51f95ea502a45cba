"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { ClientActionState } from "@/components/oauth/state";
import { revokeGrant } from "@/lib/oauth/grants";
import { orgAction } from "@/lib/web/org-action";

const path = (orgId: string) => `/org/${orgId}/settings/connected-apps`;

/** The signed-in member revokes one of their own grants (revokeGrant looks it up by user). */
export const revokeGrantAction = orgAction(
  { minRole: "member", returnTo: path, input: z.object({ id: z.string() }) },
  async ({ orgId, viewer }, { id }): Promise<ClientActionState> => {
    await revokeGrant({ userId: viewer.userId, grantId: id, reason: "user_revoked" });
    revalidatePath(path(orgId));
    return {};
  },
);
