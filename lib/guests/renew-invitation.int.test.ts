import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestGuest } from "@/lib/test-support/fixtures";
import { createMemberContext } from "@/lib/test-support/outcome";
import { invitationTokenHash } from "./invitation-token";
import { renewExpiredInvitation } from "./renew-invitation";

// "Send me a fresh one" from an expired invitation link, against PostgreSQL.

async function expiredInvitation({ acceptedAt = null as Date | null } = {}) {
  const ctx = await createMemberContext();
  const guest = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id, email: `renew-${crypto.randomUUID()}@client.example` });
  const token = `expired-${crypto.randomUUID()}`;
  await db.invitation.create({
    data: {
      orgId: ctx.org.id,
      portalId: ctx.portal.id,
      email: guest.email,
      tokenHash: invitationTokenHash(token),
      expiresAt: new Date(Date.now() - 1000),
      acceptedAt,
    },
  });
  return { ...ctx, guest, token };
}

describe("renewExpiredInvitation", () => {
  it("sends one fresh link to the invited address, however often it is asked", async () => {
    const s = await expiredInvitation();
    expect(await renewExpiredInvitation(s.token)).toBe("sent");
    const invitations = await db.invitation.findMany({ where: { portalId: s.portal.id, email: s.guest.email }, orderBy: { createdAt: "asc" } });
    expect(invitations).toHaveLength(2);
    expect(invitations[1]!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 13 * 24 * 3600 * 1000);
    expect(await db.event.count({ where: { orgId: s.org.id, type: "guest.invited" } })).toBe(1);
    expect(await db.auditLog.findFirst({ where: { orgId: s.org.id, action: "guest.reinvited" } })).toMatchObject({ actorType: "system" });
    expect(await renewExpiredInvitation(s.token)).toBe("already_sent");
    expect(await db.invitation.count({ where: { portalId: s.portal.id, email: s.guest.email } })).toBe(2);
  });

  it("sends nothing for a used link, an unknown one, a removed guest or a deleted portal", async () => {
    const used = await expiredInvitation({ acceptedAt: new Date() });
    expect(await renewExpiredInvitation(used.token)).toBe("unavailable");
    expect(await renewExpiredInvitation("no-such-token")).toBe("unavailable");
    const removed = await expiredInvitation();
    await db.portalGuest.deleteMany({ where: { portalId: removed.portal.id } });
    expect(await renewExpiredInvitation(removed.token)).toBe("unavailable");
    const gone = await expiredInvitation();
    await db.portal.update({ where: { id: gone.portal.id }, data: { deletedAt: new Date() } });
    expect(await renewExpiredInvitation(gone.token)).toBe("unavailable");
    for (const s of [used, removed, gone]) expect(await db.invitation.count({ where: { portalId: s.portal.id } })).toBe(1);
  });
});
