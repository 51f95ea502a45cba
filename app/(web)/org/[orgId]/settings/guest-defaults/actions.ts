"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { SettingsState } from "@/components/settings/action-form";
import { updateDefaultGuestPermissions } from "@/lib/organization/profile";
import { orgAction } from "@/lib/web/org-action";

const path = (orgId: string) => `/org/${orgId}/settings/guest-defaults`;
/** An unticked checkbox is absent from the form. */
const box = z.literal("on").optional().transform(Boolean);

export const guestDefaultsAction = orgAction(
  { minRole: "admin", returnTo: path, input: z.object({ view: box, upload: box, download: box, deleteOwnUploads: box }) },
  async ({ orgId, viewer }, permissions): Promise<SettingsState> => {
    await updateDefaultGuestPermissions({ viewer, permissions });
    revalidatePath(path(orgId));
    return { done: "Saved. Guests invited from now on get these permissions; guests already invited keep theirs." };
  },
);
