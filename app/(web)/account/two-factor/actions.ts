"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { SettingsState } from "@/components/settings/action-form";
import type { TwoFactorSetupState } from "@/components/account/two-factor-setup";
import { requireUser } from "@/lib/auth/session";
import { confirmTotpEnrolment, disableTwoFactor, startTotpEnrolment } from "@/lib/auth/two-factor";
import { formAction } from "@/lib/web/org-action";

const PATH = "/account/two-factor";

/** Step 1: a new secret for the authenticator app. */
export const startTotpAction = formAction({ input: z.object({}) }, async (): Promise<TwoFactorSetupState> => {
  const user = await requireUser(PATH);
  const { secret, uri } = await startTotpEnrolment({ userId: user.id, email: user.email });
  return { secret, uri };
});

/** Step 2: the first code from the app turns two-factor on; the recovery codes are shown once. */
export const confirmTotpAction = formAction(
  {
    input: z.object({ code: z.string(), secret: z.string(), uri: z.string() }),
    fields: ["code"],
    values: (f) => ({ secret: String(f.get("secret") ?? ""), uri: String(f.get("uri") ?? "") }),
  },
  async ({ code }): Promise<TwoFactorSetupState> => {
    const user = await requireUser(PATH);
    // No revalidation here: the page would replace the one view of the recovery codes.
    const recoveryCodes = await confirmTotpEnrolment({ userId: user.id, code });
    return { recoveryCodes };
  },
);

export const disableTwoFactorAction = formAction({ input: z.object({ code: z.string() }), fields: ["code"] }, async ({ code }): Promise<SettingsState> => {
  const user = await requireUser(PATH);
  await disableTwoFactor({ userId: user.id, code });
  revalidatePath(PATH);
  return { done: "Two-factor authentication is off." };
});
