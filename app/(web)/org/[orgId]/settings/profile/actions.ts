"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { SettingsState } from "@/components/settings/action-form";
import { removeOrgLogo, setOrgLogo } from "@/lib/organization/logo";
import { updateOrgProfile } from "@/lib/organization/profile";
import { setRequireTwoFactor } from "@/lib/auth/require-two-factor";
import { setOrgDefaultTimeZone } from "@/lib/time/settings";
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

/** Uploads a new logo (the file field "logo"), or removes it (the button named "remove"). */
export const logoAction = orgAction(
  { minRole: "admin", returnTo: path, input: z.object({ intent: z.enum(["upload", "remove"]) }), fields: ["logo"] },
  async ({ orgId, viewer }, { intent }, formData): Promise<SettingsState> => {
    if (intent === "remove") {
      await removeOrgLogo({ viewer });
    } else {
      const file = formData.get("logo");
      const bytes = file instanceof File ? new Uint8Array(await file.arrayBuffer()) : new Uint8Array();
      await setOrgLogo({ viewer, bytes });
    }
    revalidatePath(`/org/${orgId}`, "layout");
    return { done: intent === "remove" ? "Logo removed." : "Logo saved." };
  },
);

/** Requires (or stops requiring) two-factor authentication of members and admins. */
export const requireTwoFactorAction = orgAction(
  { minRole: "admin", returnTo: path, input: z.object({ required: z.enum(["on", "off"]) }) },
  async ({ orgId, viewer }, { required }): Promise<SettingsState> => {
    await setRequireTwoFactor({ viewer, required: required === "on" });
    revalidatePath(path(orgId));
    return { done: required === "on" ? "Members without two-factor authentication are asked to turn it on." : "Two-factor authentication is optional." };
  },
);

/** The zone of emails, digests and pages for people who have none of their own. */
export const defaultTimeZoneAction = orgAction(
  { minRole: "admin", returnTo: path, input: z.object({ defaultTimeZone: z.string() }), fields: ["defaultTimeZone"] },
  async ({ orgId, viewer }, { defaultTimeZone }): Promise<SettingsState> => {
    const zone = await setOrgDefaultTimeZone({ viewer, timeZone: defaultTimeZone });
    revalidatePath(`/org/${orgId}`, "layout");
    return { done: `Saved. People without a time zone of their own see ${zone}.` };
  },
);
