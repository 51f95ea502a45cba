import type { Tx } from "@/lib/db";
import { queueEmail } from "@/lib/email/send-email";
import { invitationAcceptedEmail } from "@/lib/email/templates/invitation-accepted";
import { env } from "@/lib/env";
import { portalWebUrl } from "@/lib/links";
import { keepForDigest } from "./digest";
import { modeForUser } from "./preferences";

// The "invitations" notification kind: whoever sent an invitation hears when it is
// accepted, a guest's to a portal or a colleague's to the organization, as they chose in their
// notification settings (immediately, daily digest, off). Written in the accepting transaction,
// so an acceptance that rolls back tells nobody and one that commits always does.

export async function notifyInvitationAccepted(
  tx: Tx,
  input: { orgId: string; inviterId: string | null; acceptedById: string } & ({ portalId: string } | { role: string }),
): Promise<"sent" | "digest" | "off" | "nobody"> {
  const { orgId, inviterId, acceptedById } = input;
  if (!inviterId || inviterId === acceptedById) return "nobody";
  // Only someone still on the organization's staff: a removed member hears nothing more.
  const inviter = await tx.membership.findFirst({
    where: { orgId, userId: inviterId, role: { in: ["admin", "member"] } },
    select: { user: { select: { email: true } }, org: { select: { name: true } } },
  });
  if (!inviter) return "nobody";
  const mode = await modeForUser(inviterId, "invitations");
  if (mode === "off") return "off";
  const accepted = await tx.user.findUniqueOrThrow({ where: { id: acceptedById }, select: { name: true, email: true } });
  let what: string;
  let url: string;
  if ("portalId" in input) {
    const portal = await tx.portal.findUniqueOrThrow({ where: { id: input.portalId }, select: { name: true } });
    what = `the portal “${portal.name}”`;
    url = portalWebUrl(orgId, input.portalId);
  } else {
    what = `${inviter.org.name} as ${input.role === "admin" ? "an admin" : "a member"}`;
    url = `${env().APP_URL}/org/${orgId}/settings/members`;
  }
  const content = invitationAcceptedEmail({ who: accepted.name ?? accepted.email, email: accepted.email, what, url });
  if (mode === "digest") {
    await keepForDigest({ userId: inviterId, orgId, kind: "invitations", subject: content.subject, text: content.text, url }, tx);
    return "digest";
  }
  await queueEmail(tx, { orgId, to: inviter.user.email, template: "invitation-accepted", ...content });
  return "sent";
}
