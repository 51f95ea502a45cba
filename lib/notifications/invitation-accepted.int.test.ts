import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { acceptInvitationAsNewUser } from "@/lib/guests/accept-invitation";
import { inviteGuests } from "@/lib/guests/invite-guests";
import { acceptMemberInvitationAsNewUser, inviteMember } from "@/lib/members/member-invitations";
import { removeMember } from "@/lib/members/manage-members";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { sendDigest } from "./digest";
import { setNotificationPreferences, type NotificationPreferences } from "./preferences";

// The "invitations" notification kind: the inviter hears when a guest or a colleague accepts,
// as they chose (immediately, daily digest, off).

const token = async (to: string, template: "invitation" | "member-invitation") => {
  const mail = await db.outboundEmail.findFirstOrThrow({ where: { to, template }, orderBy: { createdAt: "desc" } });
  return mail.text.match(/\/(?:invite|join)\/([A-Za-z0-9_-]+)/)![1]!;
};
const prefs = (invitations: NotificationPreferences["invitations"]): NotificationPreferences => ({
  uploads: "immediately",
  taskCompletions: "immediately",
  reminders: "immediately",
  invitations,
  requests: "immediately",
  messages: "immediately",
});

async function setup() {
  const org = await createTestOrg({ name: "Firm & Partners" });
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  const portal = await createTestPortal({ orgId: org.id, name: "Acme Ltd" });
  return { org, admin, portal, viewer: await getUserViewer(admin.id, org.id) };
}

const acceptedMails = (to: string) => db.outboundEmail.findMany({ where: { to, template: "invitation-accepted" } });

describe("invitation accepted notifications", () => {
  it("immediately: the inviter gets an email when a guest accepts, and when a colleague joins", async () => {
    const { org, admin, portal, viewer } = await setup();
    const guest = `guest-${crypto.randomUUID()}@client.test`;
    await inviteGuests({ viewer, portalId: portal.id, guests: [{ email: guest, name: null }] });
    expect(await acceptedMails(admin.email)).toHaveLength(0);
    await acceptInvitationAsNewUser({ token: await token(guest, "invitation"), name: "Gail Guest", password: "a-long-password" });
    const [mail] = await acceptedMails(admin.email);
    expect(mail).toMatchObject({ orgId: org.id, subject: "Gail Guest accepted your invitation to the portal “Acme Ltd”" });
    expect(mail!.text).toContain(`Gail Guest (${guest})`);
    expect(mail!.text).toContain(`/org/${org.id}/vault/${portal.id}/folder/main`);

    const colleague = `colleague-${crypto.randomUUID()}@firm.test`;
    await inviteMember({ viewer, email: colleague, role: "member" });
    await acceptMemberInvitationAsNewUser({ token: await token(colleague, "member-invitation"), name: "Cole", password: "a-long-password" });
    const mails = await acceptedMails(admin.email);
    expect(mails.map((m) => m.subject).sort()).toEqual([
      "Cole accepted your invitation to Firm & Partners as a member",
      "Gail Guest accepted your invitation to the portal “Acme Ltd”",
    ]);
  });

  it("digest: kept for the daily digest and mailed there; off: nothing at all", async () => {
    const { admin, portal, viewer } = await setup();
    await setNotificationPreferences(admin.id, prefs("digest"));
    const first = `first-${crypto.randomUUID()}@client.test`;
    await inviteGuests({ viewer, portalId: portal.id, guests: [{ email: first, name: null }] });
    await acceptInvitationAsNewUser({ token: await token(first, "invitation"), name: "First", password: "a-long-password" });
    expect(await acceptedMails(admin.email)).toHaveLength(0);
    expect(await db.digestItem.findMany({ where: { userId: admin.id }, select: { kind: true, subject: true } })).toEqual([
      { kind: "invitations", subject: "First accepted your invitation to the portal “Acme Ltd”" },
    ]);
    expect(await sendDigest(admin.id)).toEqual({ items: 1 });
    const digest = await db.outboundEmail.findFirstOrThrow({ where: { to: admin.email, template: "digest" } });
    expect(digest.text).toContain("First accepted your invitation");

    await setNotificationPreferences(admin.id, prefs("off"));
    const second = `second-${crypto.randomUUID()}@client.test`;
    await inviteGuests({ viewer, portalId: portal.id, guests: [{ email: second, name: null }] });
    await acceptInvitationAsNewUser({ token: await token(second, "invitation"), name: "Second", password: "a-long-password" });
    expect(await acceptedMails(admin.email)).toHaveLength(0);
    expect(await db.digestItem.count({ where: { userId: admin.id, sentAt: null } })).toBe(0);
  });

  it("nobody is told when the inviter has left the organization; a failed accept tells nobody", async () => {
    const { org, admin, portal } = await setup();
    const other = await createTestUser({ orgId: org.id, role: "admin" });
    const otherViewer = await getUserViewer(other.id, org.id);
    const guest = `late-${crypto.randomUUID()}@client.test`;
    await inviteGuests({ viewer: await getUserViewer(admin.id, org.id), portalId: portal.id, guests: [{ email: guest, name: null }] });
    const t = await token(guest, "invitation");
    await expect(acceptInvitationAsNewUser({ token: t, name: "Late", password: "short" })).rejects.toMatchObject({ field: "password" });
    await removeMember({ viewer: otherViewer, userId: admin.id });
    await acceptInvitationAsNewUser({ token: t, name: "Late", password: "a-long-password" });
    expect(await acceptedMails(admin.email)).toHaveLength(0);
    expect(await db.portalGuest.count({ where: { portalId: portal.id, acceptedAt: { not: null } } })).toBe(1);
  });
});
