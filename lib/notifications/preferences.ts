import { z } from "zod";
import { db } from "@/lib/db";
import type { NotificationMode } from "@/lib/generated/prisma/client";

// Each user's choice per kind of email, the same in every organization they belong to,
// members and guests alike: immediately, in the daily digest, or not at all. No row: immediately.

export const NOTIFICATION_KINDS = ["uploads", "taskCompletions", "reminders", "invitations", "requests", "messages"] as const;
export type NotificationPreferenceKind = (typeof NOTIFICATION_KINDS)[number];
const NOTIFICATION_MODES = ["immediately", "digest", "off"] as const satisfies readonly NotificationMode[];

export type NotificationPreferences = Record<NotificationPreferenceKind, NotificationMode>;

const DEFAULTS: NotificationPreferences = {
  uploads: "immediately",
  taskCompletions: "immediately",
  reminders: "immediately",
  invitations: "immediately",
  requests: "immediately",
  messages: "immediately",
};

export const NotificationPreferencesSchema = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, z.enum(NOTIFICATION_MODES)])) as Record<
    NotificationPreferenceKind,
    z.ZodEnum<{ immediately: "immediately"; digest: "digest"; off: "off" }>
  >,
);

export async function getNotificationPreferences(userId: string): Promise<NotificationPreferences> {
  const row = await db.notificationPreference.findUnique({ where: { userId } });
  return row
    ? {
        uploads: row.uploads,
        taskCompletions: row.taskCompletions,
        reminders: row.reminders,
        invitations: row.invitations,
        requests: row.requests,
        messages: row.messages,
      }
    : { ...DEFAULTS };
}

/** The signed-in user's own choice (the session decides who; there is nobody else to check). */
export async function setNotificationPreferences(userId: string, input: NotificationPreferences): Promise<NotificationPreferences> {
  const data = NotificationPreferencesSchema.parse(input);
  await db.notificationPreference.upsert({ where: { userId }, create: { userId, ...data }, update: data });
  return data;
}

export async function modeForUser(userId: string, kind: NotificationPreferenceKind): Promise<NotificationMode> {
  const row = await db.notificationPreference.findUnique({ where: { userId }, select: { [kind]: true } });
  return (row as Partial<NotificationPreferences> | null)?.[kind] ?? "immediately";
}
