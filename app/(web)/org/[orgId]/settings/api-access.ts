import { db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { requireApiAccess } from "@/lib/oauth/clients/api-access";

/** Whether the organization may use the API (D8), by the same rule the client functions enforce. */
export async function hasApiAccess(orgId: string): Promise<boolean> {
  try {
    await requireApiAccess(db, orgId);
    return true;
  } catch (e) {
    if (isAppError(e) && e.code === "api_access_disabled") return false;
    throw e;
  }
}
