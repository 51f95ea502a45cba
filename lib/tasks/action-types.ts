import type { TaskActionType, TaskStatus } from "@/lib/generated/prisma/client";
import { taskActionTypes } from "@/lib/events/types";

// Task action types: stored as enum names, spelled as the spec spells them in the API and events.

export type ApiActionType = (typeof taskActionTypes)[number];

const TO_API: Record<TaskActionType, ApiActionType> = {
  General: "General",
  Question: "Question?",
  FileRequest: "File Request",
  SignDocument: "Sign Document",
  FillForm: "Fill Form",
};

const FROM_API = Object.fromEntries(Object.entries(TO_API).map(([k, v]) => [v, k])) as Record<ApiActionType, TaskActionType>;

export const toApiActionType = (t: TaskActionType): ApiActionType => TO_API[t];
export const fromApiActionType = (t: ApiActionType): TaskActionType => FROM_API[t];

/** PATCH status (spec section 3): done, completed or closed, in any case, finish; anything else opens. */
export function statusFromInput(value: string): TaskStatus {
  return ["done", "completed", "closed"].includes(value.trim().toLowerCase()) ? "Done" : "Open";
}
