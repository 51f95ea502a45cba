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

    const { result } = await new InngestTestEngine({ function: dailyDigest }).execute();
    expect(result).toMatchObject({ items: expect.any(Number) });
    const mails = await db.outboundEmail.findMany({ where: { to: digest.email, template: "digest" } });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Your daily digest: 2 updates");
    expect(mails[0]!.text).toContain("New file in Books 2026");
    expect(await db.digestItem.count({ where: { userId: digest.id, sentAt: null } })).toBe(0);
    // Nothing pending: the next run mails nothing to this user.
    await new InngestTestEngine({ function: dailyDigest }).execute();
    expect(await db.outboundEmail.count({ where: { to: digest.email, template: "digest" } })).toBe(1);
  });
});
