"use server";

import { revalidatePath } from "next/cache";
import type { ClientActionState } from "@/components/oauth/state";
import { requireUser } from "@/lib/auth/session";
import { isAppError } from "@/lib/errors";
import { revokeGrant } from "@/lib/oauth/grants";

/** The signed-in user revokes one of their own grants (revokeGrant looks it up by user). */
export async function revokeGrantAction(orgId: string, _prev: ClientActionState, formData: FormData): Promise<ClientActionState> {
  const path = `/org/${orgId}/settings/connected-apps`;
  const user = await requireUser(path);
  try {
    await revokeGrant({ userId: user.id, grantId: String(formData.get("id") ?? ""), reason: "user_revoked" });
  } catch (e) {
    if (isAppError(e)) return { error: e.message };
    throw e;
  }
  revalidatePath(path);
  return {};
}
