"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { PortalActionState } from "@/components/portal-workspace/state";
import type { SettingsState } from "@/components/settings/action-form";
import { changeRecurringRequest, createRecurringRequest } from "@/lib/requests/recurring-requests";
import { RECURRENCE_FREQUENCIES } from "@/lib/requests/schemas";
import { addTemplateRequest, removeTemplateRequest } from "@/lib/requests/template-requests";
import { jsonField } from "@/lib/web/json-field";
import { orgAction } from "@/lib/web/org-action";

// The tasks tab's recurring requests (a portal) and request list (a template): the domain
// functions of lib/requests, as the recurring job and portal creation use them.

const member = { minRole: "member", returnTo: (orgId: string) => `/org/${orgId}` } as const;
const refresh = (orgId: string, portalId: string) => revalidatePath(`/org/${orgId}/vault/${portalId}`, "layout");
const SPEC_FIELDS = ["title", "description", "due", "send_reminder", "form_fields", "document_file_id", "recurrence"] as const;

const recurrenceInput = {
  frequency: z.enum([...RECURRENCE_FREQUENCIES, "none"]).default("none"),
  day_of_month: z.coerce.number().int().default(1),
};

export const createRecurringRequestAction = orgAction(
  { ...member, fields: SPEC_FIELDS, input: z.object({ portalId: z.string(), spec: jsonField, ...recurrenceInput }) },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    if (input.frequency === "none") return { fieldErrors: { recurrence: "Choose how often it repeats" } };
    await createRecurringRequest({
      viewer,
      portalId: input.portalId,
      spec: input.spec as never,
      recurrence: { frequency: input.frequency, day_of_month: input.day_of_month },
    });
    refresh(orgId, input.portalId);
    return { done: Date.now(), message: "Recurring request saved" };
  },
);

export const changeRecurringRequestAction = orgAction(
  { ...member, input: z.object({ portalId: z.string(), recurringRequestId: z.string(), change: z.enum(["pause", "resume", "end"]) }) },
  async ({ orgId, viewer }, input): Promise<SettingsState> => {
    const { status } = await changeRecurringRequest({ viewer, recurringRequestId: input.recurringRequestId, change: input.change });
    refresh(orgId, input.portalId);
    return { done: status === "paused" ? "Paused." : status === "active" ? "Resumed." : "Ended." };
  },
);

export const addTemplateRequestAction = orgAction(
  { ...member, fields: SPEC_FIELDS, input: z.object({ portalId: z.string(), spec: jsonField, ...recurrenceInput }) },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    const recurrence = input.frequency === "none" ? null : { frequency: input.frequency, day_of_month: input.day_of_month };
    await addTemplateRequest({ viewer, portalId: input.portalId, spec: input.spec as never, recurrence });
    refresh(orgId, input.portalId);
    return { done: Date.now(), message: "Added to the request list" };
  },
);

export const removeTemplateRequestAction = orgAction(
  { ...member, input: z.object({ portalId: z.string(), templateRequestId: z.string() }) },
  async ({ orgId, viewer }, input): Promise<SettingsState> => {
    await removeTemplateRequest({ viewer, templateRequestId: input.templateRequestId });
    refresh(orgId, input.portalId);
    return { done: "Removed." };
  },
);
