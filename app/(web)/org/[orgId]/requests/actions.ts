"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { PortalActionState } from "@/components/portal-workspace/state";
import type { SettingsState } from "@/components/settings/action-form";
import { cancelBulkRequest } from "@/lib/requests/bulk-progress";
import { createBulkRequest } from "@/lib/requests/create-bulk-request";
import { jsonField } from "@/lib/web/json-field";
import { orgAction } from "@/lib/web/org-action";

// Bulk requests from the portal list: the same domain functions the job and the tests use.

const member = { minRole: "member", returnTo: (orgId: string) => `/org/${orgId}` } as const;

const text = z
  .string()
  .optional()
  .transform((s) => s || undefined);

export const createBulkRequestAction = orgAction(
  {
    ...member,
    fields: ["title", "description", "due", "send_reminder", "form_fields", "document_file_id", "target"],
    input: z.object({
      idempotencyKey: z.string(),
      target: z.enum(["selected", "filter"]),
      portal_ids: z.array(z.string()).default([]),
      filter_q: text,
      filter_tag: text,
      filter_state: text,
      filter_status: z.enum(["active", "archived", "all"]).default("active"),
      spec: jsonField,
    }),
  },
  async ({ orgId, viewer }, input): Promise<PortalActionState> => {
    if (input.target === "selected" && input.portal_ids.length === 0) return { fieldErrors: { target: "Select portals in the list first" } };
    const target =
      input.target === "selected"
        ? { portal_ids: input.portal_ids }
        : { filter: { q: input.filter_q, tag: input.filter_tag, state: input.filter_state, status: input.filter_status } };
    const { bulkRequestId } = await createBulkRequest({ viewer, idempotencyKey: input.idempotencyKey, target, spec: input.spec as never });
    redirect(`/org/${orgId}/requests/${bulkRequestId}`);
  },
);

export const cancelBulkRequestAction = orgAction(
  { ...member, input: z.object({ bulkRequestId: z.string() }) },
  async ({ orgId, viewer }, { bulkRequestId }): Promise<SettingsState> => {
    const { cancelled } = await cancelBulkRequest({ viewer, bulkRequestId });
    revalidatePath(`/org/${orgId}/requests/${bulkRequestId}`);
    return { done: cancelled > 0 ? `Cancelled: ${cancelled} ${cancelled === 1 ? "portal does" : "portals do"} not get it.` : "Nothing was left to send." };
  },
);
