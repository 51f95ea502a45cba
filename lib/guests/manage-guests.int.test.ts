import { describe, expect, it } from "vitest";
import { findUserViewer, getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { createForeignAdmin, outcomeOf } from "@/lib/test-support/outcome";
import { inviteGuests } from "./invite-guests";
import { listPortalGuests, markGuestSeen, removeGuest, resendInvitation } from "./manage-guests";

// The guests panel: list with state and permissions, resend, remove (access ends at once), last seen.

async function setup() {
  const org = await createTestOrg();
  const member = await createTestUser({ orgId: org.id, role: "member" });
  const viewer = await getUserViewer(member.id, org.id);
  const portal = await createTestPortal({ orgId: org.id });
  const other = await createTestPortal({ orgId: org.id });
  const suffix = crypto.randomUUID();
  const ann = `ann-${suffix}@test.example`;
  const bob = `bob-${suffix}@test.example`;
  await inviteGuests({
    viewer,
    portalId: portal.id,
    guests: [
      { email: bob, name: "Bob" },
      { email: ann, name: null },
    ],
  });
  await inviteGuests({ viewer, portalId: other.id, guests: [{ email: ann, name: null }] });
  return { org, member, viewer, portal, other, ann, bob };
}

describe("guests panel", () => {
  it("lists the portal's guests by email with state, last seen and permissions", async () => {
    const { org, viewer, portal, ann, bob } = await setup();
    const annUser = await db.user.findUniqueOrThrow({ where: { email: ann } });
    await db.portalGuest.updateMany({ where: { portalId: portal.id, userId: annUser.id }, data: { acceptedAt: new Date() } });
    const seenAt = new Date();
    await markGuestSeen({ orgId: org.id, userId: annUser.id, now: seenAt });

    const guests = await listPortalGuests({ viewer, portalId: portal.id });
    expect(guests.map((g) => [g.email, g.name, g.state, g.lastSeenAt])).toEqual([
      [ann, null, "accepted", seenAt],
      [bob, "Bob", "invited", null],
    ]);
    expect(guests[0]!.permissions).toEqual({ view: true, download: true, upload: true, deleteOwnUploads: false });
    // Seen at most every 5 minutes: a second view a minute later writes nothing.
    await markGuestSeen({ orgId: org.id, userId: annUser.id, now: new Date(seenAt.getTime() + 60_000) });
    expect((await db.portalGuest.findFirstOrThrow({ where: { portalId: portal.id, userId: annUser.id } })).lastSeenAt).toEqual(seenAt);
    await markGuestSeen({ orgId: org.id, userId: annUser.id, now: new Date(seenAt.getTime() + 6 * 60_000) });
    expect((await db.portalGuest.findFirstOrThrow({ where: { portalId: portal.id, userId: annUser.id } })).lastSeenAt).toEqual(
      new Date(seenAt.getTime() + 6 * 60_000),
    );
  });

  it("resends an invitation as a re-invitation: a new link, email, guest.invited event and guest.reinvited audit row", async () => {
    const { org, viewer, portal, bob } = await setup();
    const [guest] = (await listPortalGuests({ viewer, portalId: portal.id })).filter((g) => g.email === bob);
    const count = async () => ({
      invitations: await db.invitation.count({ where: { portalId: portal.id, email: bob } }),
      emails: await db.outboundEmail.count({ where: { orgId: org.id, to: bob } }),
      events: await db.event.count({ where: { orgId: org.id, type: "guest.invited", portalId: portal.id } }),
      reinvited: await db.auditLog.count({ where: { orgId: org.id, action: "guest.reinvited", targetId: guest!.id } }),
    });
    const before = await count();
    await resendInvitation({ viewer, portalId: portal.id, guestId: guest!.id });
    expect(await count()).toEqual({ invitations: before.invitations + 1, emails: before.emails + 1, events: before.events + 1, reinvited: 1 });
    expect(await outcomeOf(resendInvitation({ viewer, portalId: portal.id, guestId: crypto.randomUUID() }))).toBe("not_found: Guest not found");
  });

  it("removing a guest ends their access to that portal at once and voids their open links; other portals stay", async () => {
    const { org, viewer, portal, other, ann } = await setup();
    const annUser = await db.user.findUniqueOrThrow({ where: { email: ann } });
    expect((await findUserViewer(annUser.id, org.id))?.guestPortals.map((g) => g.portalId).sort()).toEqual([portal.id, other.id].sort());
    const [guest] = (await listPortalGuests({ viewer, portalId: portal.id })).filter((g) => g.email === ann);

    // Another organization's admin and a guest cannot.
    const foreign = await createForeignAdmin();
    expect(await outcomeOf(removeGuest({ viewer: foreign, portalId: portal.id, guestId: guest!.id }))).toBe("not_found: Portal not found");
    const asGuest = (await findUserViewer(annUser.id, org.id))!;
    expect(await outcomeOf(removeGuest({ viewer: asGuest, portalId: portal.id, guestId: guest!.id }))).toBe(
      "forbidden: Guests of this portal may not invite guests",
    );

    await removeGuest({ viewer, portalId: portal.id, guestId: guest!.id });
    expect((await findUserViewer(annUser.id, org.id))?.guestPortals.map((g) => g.portalId)).toEqual([other.id]);
    expect(await db.invitation.count({ where: { portalId: portal.id, email: ann } })).toBe(0);
    expect(await db.invitation.count({ where: { portalId: other.id, email: ann } })).toBe(1);
    expect(await db.auditLog.findFirst({ where: { orgId: org.id, action: "guest.removed" } })).toMatchObject({
      targetId: guest!.id,
      metadata: { email: ann, user_id: annUser.id },
    });
    expect((await listPortalGuests({ viewer, portalId: portal.id })).map((g) => g.email)).not.toContain(ann);
    expect(await outcomeOf(removeGuest({ viewer, portalId: portal.id, guestId: guest!.id }))).toBe("not_found: Guest not found");
  });
});
