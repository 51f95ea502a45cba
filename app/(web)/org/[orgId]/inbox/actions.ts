"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { isUuid } from "@/lib/ids";
import { markAllInboxSeen, markInboxItemSeen } from "@/lib/inbox/seen";
import type { FormState } from "@/lib/web/form-state";
import { orgAction } from "@/lib/web/org-action";

// The inbox's actions: opening an item (marks it seen, then goes to it) and "mark all seen". Both
// refresh the organization's layout, whose header shows the unread count.

const returnTo = (orgId: string) => `/org/${orgId}/inbox`;

export interface InboxActionState extends FormState<Record<string, string>> {
  done?: boolean;
}

export const openInboxItemAction = orgAction(
  { minRole: "member", returnTo, input: z.object({ itemId: z.string().refine(isUuid, "This item is no longer there: reload the inbox") }) },
  async ({ orgId, viewer }, input): Promise<InboxActionState> => {
    const { href } = await markInboxItemSeen({ viewer, itemId: input.itemId });
    revalidatePath(`/org/${orgId}`, "layout");
    redirect(href);
  },
);

export const markAllSeenAction = orgAction({ minRole: "member", returnTo, input: z.object({}) }, async ({ orgId, viewer }): Promise<InboxActionState> => {
  await markAllInboxSeen({ viewer });
  revalidatePath(`/org/${orgId}`, "layout");
  return { done: true };
});
