"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { SettingsState } from "@/components/settings/action-form";
import { updateOrgProfile } from "@/lib/organization/profile";
import { orgAction } from "@/lib/web/org-action";

const path = (orgId: string) => `/org/${orgId}/settings/profile`;

export const profileAction = orgAction(
  { minRole: "admin", returnTo: path, input: z.object({ name: z.string(), brandColor: z.string() }), fields: ["name", "brandColor"] },
  async ({ orgId, viewer }, input): Promise<SettingsState> => {
    await updateOrgProfile({ viewer, ...input });
    // The name and colour appear in the header of every page of the organization.
    revalidatePath(`/org/${orgId}`, "layout");
    return { done: "Saved." };
  },
);
