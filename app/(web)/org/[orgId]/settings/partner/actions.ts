"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { PartnerActionState, PartnerFormState, PartnerFormValues } from "@/components/partner/state";
import { connectPartner, disconnectPartner, testPartnerCredentials } from "@/lib/partner/connection";
import { orgAction } from "@/lib/web/org-action";

// Partner integration settings: admins only; the same domain functions as everywhere, whose
// errors name the field (apiUrl, apiKey) they are about.

const path = (orgId: string) => `/org/${orgId}/settings/partner`;
const credentials = z.object({ apiUrl: z.string().optional(), apiKey: z.string() });
const formValues = (formData: FormData): PartnerFormValues => ({ apiUrl: String(formData.get("apiUrl") ?? "") });
const admin = { minRole: "admin", returnTo: path } as const;
const shown = { values: formValues, fields: ["apiUrl", "apiKey"] } as const;

export const testPartnerAction = orgAction({ ...admin, ...shown, input: credentials }, async ({ viewer }, input): Promise<PartnerFormState> => {
  await testPartnerCredentials({ viewer, apiUrl: input.apiUrl, apiKey: input.apiKey });
  return { tested: Date.now(), values: { apiUrl: input.apiUrl ?? "" } };
});

export const connectPartnerAction = orgAction({ ...admin, ...shown, input: credentials }, async ({ orgId, viewer }, input): Promise<PartnerFormState> => {
  await connectPartner({ viewer, apiUrl: input.apiUrl, apiKey: input.apiKey });
  revalidatePath(path(orgId));
  return { saved: Date.now() };
});

export const disconnectPartnerAction = orgAction({ ...admin, input: z.object({}) }, async ({ orgId, viewer }): Promise<PartnerActionState> => {
  await disconnectPartner({ viewer });
  revalidatePath(path(orgId));
  return { done: Date.now() };
});
