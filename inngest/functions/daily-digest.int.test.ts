import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { dailyDigest } from "./daily-digest";
import { notifyPortalUsers } from "./notify-portal-users";
import { db } from "@/lib/db";
import { createTestGuest, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { getNotificationPreferences, setNotificationPreferences } from "@/lib/notifications/preferences";

// Without SMTP_URL emails are captured, so OutboundEmail rows show exactly who was told what.

function uploadedBy(orgId: string, portalId: string, user: { id: string; email: string; name: string | null }) {
  return {
    name: "file.uploaded",
    data: {
      event_id: crypto.randomUUID(),
      org_id: orgId,
      portal_id: portalId,
      file_id: crypto.randomUUID(),
      name: "Invoice.pdf",
      extension: "pdf",
      size: 10,
      content_type: "application/pdf",
      uploaded_by: user.id,
      uploaded_by_email: user.email,
      uploaded_by_name: user.name,
      task_id: null,
    },
  };
}

/** The hourly run as scheduled at `iso`. */
function digestRunAt(iso: string) {
  return new InngestTestEngine({ function: dailyDigest, events: [{ name: "inngest/scheduled.timer", data: {}, ts: Date.parse(iso) }] }).execute();
}

describe("notification preferences", () => {
  it("defaults to immediately and stores a user's choice", async () => {
    const user = await createTestUser();
    expect(await getNotificationPreferences(user.id)).toEqual({
      uploads: "immediately",
      taskCompletions: "immediately",
      reminders: "immediately",
      invitations: "immediately",
      requests: "immediately",
      messages: "immediately",
    });
    await setNotificationPreferences(user.id, {
      uploads: "off",
      taskCompletions: "digest",
      reminders: "immediately",
      invitations: "off",
      requests: "off",
      messages: "off",
    });
    expect(await getNotificationPreferences(user.id)).toMatchObject({ uploads: "off", taskCompletions: "digest" });
    await expect(setNotificationPreferences(user.id, { uploads: "sometimes" } as never)).rejects.toMatchObject({ name: "ZodError" });
  });

  it("upload emails: off sends nothing, digest keeps it for the daily digest, immediately sends; the digest mails once", async () => {
    const org = await createTestOrg();
    const portal = await createTestPortal({ orgId: org.id, name: "Books 2026" });
    const admin = await createTestUser({ orgId: org.id, role: "admin", name: "Ada" });
    const quiet = await createTestUser({ orgId: org.id, role: "member", name: "Quiet" });
    const digest = await createTestUser({ orgId: org.id, role: "member", name: "Digest" });
    const guest = await createTestGuest({ orgId: org.id, portalId: portal.id });
    await setNotificationPreferences(quiet.id, {
      uploads: "off",
      taskCompletions: "immediately",
      reminders: "immediately",
      invitations: "immediately",
      requests: "immediately",
      messages: "immediately",
    });
    await setNotificationPreferences(digest.id, {
      uploads: "digest",
      taskCompletions: "immediately",
      reminders: "immediately",
      invitations: "immediately",
      requests: "immediately",
      messages: "immediately",
    });
    // A guest who turned uploads off gets nothing either.
    await setNotificationPreferences(guest.id, {
      uploads: "off",
      taskCompletions: "off",
      reminders: "off",
      invitations: "off",
      requests: "off",
      messages: "off",
    });

    await new InngestTestEngine({
      function: notifyPortalUsers,
      events: [uploadedBy(org.id, portal.id, admin)],
      steps: [{ id: "batch-window", handler: () => undefined }],
    }).execute();
    const sent = await db.outboundEmail.findMany({ where: { orgId: org.id } });
    expect(sent.map((e) => e.to)).toEqual([]);
    expect(await db.digestItem.count({ where: { userId: digest.id, sentAt: null } })).toBe(1);

    // The guest's own upload: the admin (immediately) is told at once.
    await new InngestTestEngine({
      function: notifyPortalUsers,
      events: [uploadedBy(org.id, portal.id, guest)],
      steps: [{ id: "batch-window", handler: () => undefined }],
    }).execute();
    expect((await db.outboundEmail.findMany({ where: { orgId: org.id } })).map((e) => e.to)).toEqual([admin.email]);
    expect(await db.digestItem.count({ where: { userId: digest.id, sentAt: null } })).toBe(2);

    const { result } = await digestRunAt("2026-11-25T07:00:00Z");
    expect(result).toMatchObject({ items: expect.any(Number) });
    const mails = await db.outboundEmail.findMany({ where: { to: digest.email, template: "digest" } });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Your daily digest: 2 updates");
    expect(mails[0]!.text).toContain("New file in Books 2026");
    expect(mails[0]!.text).not.toContain("UTC");
    expect(await db.digestItem.count({ where: { userId: digest.id, sentAt: null } })).toBe(0);
    // Nothing pending: the next run mails nothing to this user.
    await digestRunAt("2026-11-26T07:00:00Z");
    expect(await db.outboundEmail.count({ where: { to: digest.email, template: "digest" } })).toBe(1);
  });

  it("goes out at 07:00 in the recipient's zone, else the organization's default, with times in that zone", async () => {
    const org = await createTestOrg();
    await db.organization.update({ where: { id: org.id }, data: { defaultTimeZone: "Asia/Tokyo" } });
    const newYork = await createTestUser({ orgId: org.id, role: "member" });
    const tokyo = await createTestUser({ orgId: org.id, role: "member" });
    await db.user.update({ where: { id: newYork.id }, data: { timeZone: "America/New_York" } });
    const createdAt = new Date("2026-11-24T20:30:00Z");
    for (const user of [newYork, tokyo])
      await db.digestItem.create({ data: { userId: user.id, orgId: org.id, kind: "uploads", subject: "New file", text: "", createdAt } });
    const digests = async () =>
      (await db.outboundEmail.findMany({ where: { orgId: org.id, template: "digest" }, orderBy: { createdAt: "asc" } })).map((e) => ({
        to: e.to,
        text: e.text,
      }));

    // 22:00 UTC is 07:00 in Tokyo (the organization's default), 17:00 in New York.
    await digestRunAt("2026-11-24T22:00:00Z");
    expect(await digests()).toEqual([{ to: tokyo.email, text: expect.stringContaining("- 25 Nov 2026, 05:30 · New file") }]);
    // 07:00 UTC is nobody's morning here; 12:00 UTC is 07:00 in New York (EST).
    await digestRunAt("2026-11-25T07:00:00Z");
    expect(await digests()).toHaveLength(1);
    await digestRunAt("2026-11-25T12:00:00Z");
    expect((await digests())[1]).toEqual({ to: newYork.email, text: expect.stringContaining("- 24 Nov 2026, 15:30 · New file") });
  });
});
