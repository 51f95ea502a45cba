import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { notifyPortalUsers } from "./notify-portal-users";

// Without SMTP_URL the notification emails are captured, so the rows show who was told what.

async function setup() {
  const org = await createTestOrg();
  const portal = await createTestPortal({ orgId: org.id, name: "Payroll 2026" });
  const admin = await createTestUser({ orgId: org.id, role: "admin", name: "Alice Admin" });
  const member = await createTestUser({ orgId: org.id, role: "member", name: "Mo Member" });
  const quiet = await createTestUser({ orgId: org.id, role: "member", name: "Quiet Member" });
  await db.notificationSetting.create({ data: { orgId: org.id, userId: quiet.id, fileUploaded: false, taskCompleted: true } });
  const guest = await createTestUser({ name: "Gail Guest" });
  const pending = await createTestUser({ name: "Not accepted" });
  const otherPortal = await createTestPortal({ orgId: org.id });
  const outsider = await createTestUser({ name: "Other portal's guest" });
  const permissions = { view: true, download: true, upload: true, delete: false };
  await db.portalGuest.create({ data: { orgId: org.id, portalId: portal.id, userId: guest.id, permissions, acceptedAt: new Date() } });
  await db.portalGuest.create({ data: { orgId: org.id, portalId: portal.id, userId: pending.id, permissions } });
  await db.portalGuest.create({ data: { orgId: org.id, portalId: otherPortal.id, userId: outsider.id, permissions, acceptedAt: new Date() } });
  return { org, portal, admin, member, quiet, guest };
}

function uploaded(orgId: string, portalId: string, by: { id: string; email: string; name: string | null }) {
  return {
    name: "file.uploaded",
    data: {
      event_id: crypto.randomUUID(),
      org_id: orgId,
      portal_id: portalId,
      file_id: crypto.randomUUID(),
      name: "Payslips <March>.pdf",
      extension: "pdf",
      size: 1200,
      content_type: "application/pdf",
      uploaded_by: by.id,
      uploaded_by_email: by.email,
      uploaded_by_name: by.name,
      task_id: null,
    },
  };
}

/** A run with the uploads' batch window (lib/notifications/batch.ts) passing at once. */
const engine = (event: ReturnType<typeof uploaded>) =>
  new InngestTestEngine({ function: notifyPortalUsers, events: [event], steps: [{ id: "batch-window", handler: () => undefined }] });

async function emails(orgId: string) {
  return db.outboundEmail.findMany({ where: { orgId }, orderBy: { to: "asc" } });
}

describe("notify-portal-users", () => {
  it("tells members (settings permitting) and accepted guests of the portal about a staff upload, not the uploader", async () => {
    const s = await setup();
    const { result } = await engine(uploaded(s.org.id, s.portal.id, s.admin)).execute();
    expect(result).toEqual({ notified: 2 });
    const sent = await emails(s.org.id);
    expect(sent.map((e) => e.to).sort()).toEqual([s.member.email, s.guest.email].sort());
    expect(sent[0]).toMatchObject({ template: "file-uploaded", status: "captured", subject: "New file in Payroll 2026: Payslips <March>.pdf" });
    expect(sent[0]!.text).toContain("Alice Admin uploaded");
    expect(sent[0]!.text).toMatch(/\/vault\/[0-9a-f-]+\/folder\/main\?file=/);
    expect(sent[0]!.html).toContain("Payslips &lt;March&gt;.pdf");
  });

  it("tells only members about a guest's upload", async () => {
    const s = await setup();
    await engine(uploaded(s.org.id, s.portal.id, s.guest)).execute();
    expect((await emails(s.org.id)).map((e) => e.to).sort()).toEqual([s.admin.email, s.member.email].sort());
  });

  it("tells members with task notifications on about a completed task, not the completer nor guests", async () => {
    const s = await setup();
    const task = await db.task.create({
      data: { orgId: s.org.id, portalId: s.portal.id, title: "Send bank statements", status: "Done", completedAt: new Date(), completedById: s.member.id },
    });
    const event = {
      name: "task.completed",
      data: {
        event_id: crypto.randomUUID(),
        org_id: s.org.id,
        portal_id: s.portal.id,
        task_id: task.id,
        action_type: "General",
        status: "Done",
        attached_files: [],
      },
    };
    const { result } = await new InngestTestEngine({ function: notifyPortalUsers, events: [event] }).execute();
    expect(result).toEqual({ notified: 2 });
    const sent = await emails(s.org.id);
    expect(sent.map((e) => e.to).sort()).toEqual([s.admin.email, s.quiet.email].sort());
    expect(sent[0]).toMatchObject({ template: "task-completed", subject: "Task completed in Payroll 2026: Send bank statements" });
    expect(sent[0]!.text).toContain("completed by Mo Member");
  });

  it("sends nothing for a deleted portal", async () => {
    const s = await setup();
    await db.portal.update({ where: { id: s.portal.id }, data: { deletedAt: new Date() } });
    const { result } = await engine(uploaded(s.org.id, s.portal.id, s.admin)).execute();
    expect(result).toEqual({ notified: 0 });
    expect(await emails(s.org.id)).toEqual([]);
  });
});
