"use server";

import { revalidatePath } from "next/cache";
import type { SettingsState } from "@/components/settings/action-form";
import { requireUser } from "@/lib/auth/session";
import { NotificationPreferencesSchema, setNotificationPreferences } from "@/lib/notifications/preferences";
import { formAction } from "@/lib/web/org-action";

/** The signed-in user's own email choices (members and guests alike). */
export const notificationPreferencesAction = formAction({ input: NotificationPreferencesSchema }, async (prefs): Promise<SettingsState> => {
  const user = await requireUser("/account/notifications");
  await setNotificationPreferences(user.id, prefs);
  revalidatePath("/account/notifications");
  return { done: "Saved. These choices apply in every organization you belong to." };
});
