"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { SettingsState } from "@/components/settings/action-form";
import { currentSessionId, requireUser } from "@/lib/auth/session";
import { endOtherSessions, endUserSession } from "@/lib/auth/user-sessions";
import { formAction } from "@/lib/web/org-action";

const PATH = "/account/sessions";

/** Signs one of the user's other browsers out. */
export const endSessionAction = formAction({ input: z.object({ sessionId: z.string() }) }, async ({ sessionId }): Promise<SettingsState> => {
  const user = await requireUser(PATH);
  await endUserSession({ userId: user.id, sessionId });
  revalidatePath(PATH);
  return { done: "Signed out." };
});

/** Signs out every browser of the user but this one. */
export const endOtherSessionsAction = formAction({ input: z.object({}) }, async (): Promise<SettingsState> => {
  const user = await requireUser(PATH);
  const current = await currentSessionId();
  if (!current) return { error: "Sign in again to manage your sessions." };
  const ended = await endOtherSessions({ userId: user.id, currentSessionId: current });
  revalidatePath(PATH);
  return { done: ended === 1 ? "Signed out of 1 other session." : `Signed out of ${ended} other sessions.` };
});
