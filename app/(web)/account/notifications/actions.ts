"use server";

import { revalidatePath } from "next/cache";
import type { SettingsState } from "@/components/settings/action-form";
import { z } from "zod";
import { currentUser, requireUser } from "@/lib/auth/session";
import { NotificationPreferencesSchema, setNotificationPreferences } from "@/lib/notifications/preferences";
import { adoptDetectedTimeZone, setUserTimeZone } from "@/lib/time/settings";
import { formAction } from "@/lib/web/org-action";

/** The signed-in user's own email choices (members and guests alike). */
export const notificationPreferencesAction = formAction({ input: NotificationPreferencesSchema }, async (prefs): Promise<SettingsState> => {
  const user = await requireUser("/account/notifications");
  await setNotificationPreferences(user.id, prefs);
  revalidatePath("/account/notifications");
  return { done: "Saved. These choices apply in every organization you belong to." };
});

/** The zone the signed-in user's pages and emails are written in. */
export const timeZoneAction = formAction({ input: z.object({ timeZone: z.string() }), fields: ["timeZone"] }, async ({ timeZone }): Promise<SettingsState> => {
  const user = await requireUser("/account/notifications");
  const zone = await setUserTimeZone({ userId: user.id, timeZone });
  revalidatePath("/", "layout");
  return { done: `Saved. Dates and times are shown in ${zone}.` };
});

/** The browser's zone, kept for a signed-in user who has none yet (components/detect-time-zone). */
export async function detectedTimeZoneAction(zone: unknown): Promise<boolean> {
  const user = await currentUser();
  if (!user || typeof zone !== "string") return false;
  return adoptDetectedTimeZone({ userId: user.id, timeZone: zone });
}
