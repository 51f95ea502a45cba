"use server";

import { redirect, RedirectType } from "next/navigation";
import { signInPath } from "@/lib/auth/safe-return";
import { currentUser } from "@/lib/auth/session";
import { authorizeParamsFrom, authorizeQuery, decideConsent } from "@/lib/oauth/consent";

/** Approve or Deny: decideConsent checks everything again and says where the browser goes. */
export async function consentAction(formData: FormData): Promise<void> {
  const params = authorizeParamsFrom(formData);
  const user = await currentUser();
  // Signed out in another tab since the form was shown: sign in again, then see the form again.
  if (!user) redirect(signInPath(`/oauth/consent?${authorizeQuery(params)}`));
  const target = await decideConsent({
    userId: user.id,
    params,
    token: String(formData.get("consent_token") ?? ""),
    approve: formData.get("decision") === "approve",
    checkedScopes: formData.getAll("approved_scope").filter((v): v is string => typeof v === "string"),
  });
  // Replace: going Back should not land on a form that was already answered.
  redirect(target, RedirectType.replace);
}
