"use server";

import { headers } from "next/headers";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { isAppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { guestPortalPath } from "@/lib/links";
import { signDocument } from "@/lib/signing/sign-document";
import { answerQuestion, markGeneralTaskDone, submitTaskForm } from "@/lib/tasks/task-answers";
import type { FormState } from "@/lib/web/form-state";
import { orgAction } from "@/lib/web/org-action";

// The client's task actions in their portal view: each calls the same lib/ domain function as
// any other route, so the same audit rows and events happen.

const uuid = (what: string) => z.string().refine(isUuid, `${what}: not a valid id (reload the page)`);
const ids = { portalId: uuid("portal"), taskId: uuid("task") };
const returnTo = (orgId: string) => `/org/${orgId}`;

export interface TaskFormState extends FormState<Record<string, string>> {
  done?: boolean;
}

function refresh(orgId: string, portalId: string) {
  revalidatePath(guestPortalPath(orgId, portalId));
  revalidatePath("/guest");
}

export const answerQuestionAction = orgAction(
  {
    minRole: "guest",
    returnTo,
    input: z.object({ ...ids, answer: z.string().max(20_000) }),
    fields: ["answer"],
    values: (f): Record<string, string> => ({ answer: String(f.get("answer") ?? "") }),
  },
  async ({ orgId, viewer }, input): Promise<TaskFormState> => {
    await answerQuestion({ viewer, taskId: input.taskId, text: input.answer });
    refresh(orgId, input.portalId);
    return { done: true };
  },
);

export const markDoneAction = orgAction<{ portalId: string; taskId: string }, TaskFormState>(
  { minRole: "guest", returnTo, input: z.object(ids) },
  async ({ orgId, viewer }, input): Promise<TaskFormState> => {
    await markGeneralTaskDone({ viewer, taskId: input.taskId });
    refresh(orgId, input.portalId);
    return { done: true };
  },
);

/** The form's answers are the `field_<id>` inputs; a field's error is shown at that field, nothing is stored. */
export const submitFormAction = orgAction<{ portalId: string; taskId: string }, TaskFormState>(
  { minRole: "guest", returnTo, input: z.object(ids) },
  async ({ orgId, viewer }, input, formData): Promise<TaskFormState> => {
    const values: Record<string, string> = {};
    for (const [key, value] of formData.entries()) if (key.startsWith("field_") && typeof value === "string") values[key.slice("field_".length)] = value;
    try {
      await submitTaskForm({ viewer, taskId: input.taskId, values });
    } catch (e) {
      if (isAppError(e) && e.field?.startsWith("field_")) {
        const given = Object.fromEntries(Object.entries(values).map(([k, v]) => [`field_${k}`, v]));
        return { fieldErrors: { [e.field]: e.userMessage }, error: "Check the highlighted field: nothing was sent yet.", values: given };
      }
      throw e;
    }
    refresh(orgId, input.portalId);
    return { done: true };
  },
);

export interface SignState extends FormState<{ typedName: string; method: string }> {
  signedFileId?: string;
}

/** Signs the task's document (lib/signing); the request's address and browser go on the certificate page. */
export const signAction = orgAction(
  {
    minRole: "guest",
    returnTo,
    input: z.object({
      ...ids,
      method: z.enum(["typed", "drawn"], { error: "Choose to type or draw your signature" }),
      typedName: z.string().max(200).optional().default(""),
      drawing: z.string().max(2_000_000, "The drawing is too large; clear it and sign again").optional().default(""),
      consent: z.string().optional(),
    }),
    fields: ["signature", "consent"],
    values: (f) => ({ typedName: String(f.get("typedName") ?? ""), method: String(f.get("method") ?? "typed") }),
  },
  async ({ orgId, viewer }, input): Promise<SignState> => {
    const h = await headers();
    const ip = h.get("x-forwarded-for")?.split(",")[0]?.trim() || h.get("x-real-ip") || "unknown";
    const file = await signDocument({
      viewer,
      taskId: input.taskId,
      signature: input.method === "typed" ? { kind: "typed", name: input.typedName } : { kind: "drawn", dataUrl: input.drawing },
      consent: input.consent === "on" || input.consent === "true",
      ip,
      userAgent: h.get("user-agent") ?? "unknown",
    });
    refresh(orgId, input.portalId);
    return { signedFileId: file.id };
  },
);
