"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { isUuid } from "@/lib/ids";
import { postMessage } from "@/lib/messages/post-message";
import { markThreadRead } from "@/lib/messages/thread";
import { guestPortalPath } from "@/lib/links";
import type { FormState } from "@/lib/web/form-state";
import { orgAction } from "@/lib/web/org-action";

// A portal's messages, for the firm (the portal's Messages tab) and the client (their portal
// page): both call the same domain functions, which decide who may.

const uuid = (what: string) => z.string().refine(isUuid, `${what}: not a valid id (reload the page)`);
const returnTo = (orgId: string) => `/org/${orgId}`;

export interface MessageFormState extends FormState<{ body: string }> {
  sentId?: string;
}

function refresh(orgId: string, portalId: string) {
  revalidatePath(`/org/${orgId}/vault/${portalId}/messages`);
  revalidatePath(guestPortalPath(orgId, portalId));
  revalidatePath(`/org/${orgId}`, "layout");
}

export const postMessageAction = orgAction(
  {
    minRole: "guest",
    returnTo,
    input: z.object({
      portalId: uuid("portal"),
      body: z.string().max(20_000, "Keep the message under 10000 characters").default(""),
      fileIds: z.array(z.string()).max(20, "Attach at most 10 files to one message").default([]),
    }),
    fields: ["body", "fileIds"],
    values: (f) => ({ body: String(f.get("body") ?? "") }),
  },
  async ({ orgId, viewer }, input): Promise<MessageFormState> => {
    const message = await postMessage({ viewer, portalId: input.portalId, body: input.body, fileIds: input.fileIds });
    refresh(orgId, input.portalId);
    return { sentId: message.id };
  },
);

export const markThreadReadAction = orgAction(
  {
    minRole: "guest",
    returnTo,
    input: z.object({ portalId: uuid("portal"), until: z.iso.datetime({ offset: true }) }),
  },
  async ({ orgId, viewer }, input): Promise<MessageFormState> => {
    await markThreadRead({ viewer, portalId: input.portalId, until: new Date(input.until) });
    refresh(orgId, input.portalId);
    return {};
  },
);
