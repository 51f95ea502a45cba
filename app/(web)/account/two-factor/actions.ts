"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { SettingsState } from "@/components/settings/action-form";
import type { TwoFactorSetupState } from "@/components/account/two-factor-setup";
import type { PublicKeyCredentialCreationOptionsJSON } from "@simplewebauthn/server";
import { finishPasskeyRegistration, removePasskey, startPasskeyRegistration } from "@/lib/auth/passkeys";
import { requireUser } from "@/lib/auth/session";
import { confirmTotpEnrolment, disableTwoFactor, startTotpEnrolment } from "@/lib/auth/two-factor";
import { formAction } from "@/lib/web/org-action";
import { errorState } from "@/lib/web/form-input";

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

/** Adding a passkey, step 1: the options for the browser (no form; called by the passkey form). */
export async function startPasskeyAction(): Promise<{ options: PublicKeyCredentialCreationOptionsJSON } | { error: string }> {
  const user = await requireUser(PATH);
  try {
    return { options: await startPasskeyRegistration({ userId: user.id }) };
  } catch (e) {
    const state = errorState(e);
    if (!state) throw e;
    return { error: state.error ?? "The passkey could not be started; try again" };
  }
}

/** Step 2: the authenticator's answer and the name the user gave it. */
export const finishPasskeyAction = formAction(
  { input: z.object({ name: z.string(), answer: z.string() }), fields: ["name"] },
  async ({ name, answer }): Promise<SettingsState> => {
    const user = await requireUser(PATH);
    const added = await finishPasskeyRegistration({ userId: user.id, name, answer });
    revalidatePath(PATH);
    return { done: `Passkey "${added.name}" added.` };
  },
);

export const removePasskeyAction = formAction({ input: z.object({ passkeyId: z.string() }) }, async ({ passkeyId }): Promise<SettingsState> => {
  const user = await requireUser(PATH);
  await removePasskey({ userId: user.id, passkeyId });
  revalidatePath(PATH);
  return { done: "Passkey removed." };
});
