"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { SettingsState } from "@/components/settings/action-form";
import { changeMemberRole, removeMember } from "@/lib/members/manage-members";
import { inviteMember, revokeMemberInvitation } from "@/lib/members/member-invitations";
import { orgAction } from "@/lib/web/org-action";

const path = (orgId: string) => `/org/${orgId}/settings/members`;
const admin = { minRole: "admin", returnTo: path } as const;

export const inviteMemberAction = orgAction(
  { ...admin, input: z.object({ email: z.string(), role: z.enum(["member", "admin"]) }), fields: ["email"] },
  async ({ orgId, viewer }, input): Promise<SettingsState> => {
    const invited = await inviteMember({ viewer, ...input });
    revalidatePath(path(orgId));
    return { done: `Invitation sent to ${invited.email}.` };
  },
);

export const changeRoleAction = orgAction(
  { ...admin, input: z.object({ userId: z.string(), role: z.enum(["member", "admin"]) }) },
  async ({ orgId, viewer }, { userId, role }): Promise<SettingsState> => {
    const result = await changeMemberRole({ viewer, userId, role });
    revalidatePath(path(orgId));
    return { done: result.changed ? `Role changed to ${role}.` : `Already ${role}.` };
  },
);

export const removeMemberAction = orgAction(
  { ...admin, input: z.object({ userId: z.string() }) },
  async ({ orgId, viewer }, { userId }): Promise<SettingsState> => {
    await removeMember({ viewer, userId });
    revalidatePath(path(orgId));
    return { done: "Removed." };
  },
);

export const revokeInvitationAction = orgAction(
  { ...admin, input: z.object({ invitationId: z.string() }) },
  async ({ orgId, viewer }, { invitationId }): Promise<SettingsState> => {
    await revokeMemberInvitation({ viewer, invitationId });
    revalidatePath(path(orgId));
    return { done: "Invitation withdrawn." };
  },
);
