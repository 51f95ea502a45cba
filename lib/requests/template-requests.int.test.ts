import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { isAppError } from "@/lib/errors";
import { createPortal } from "@/lib/portals/create-portal";
import { createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";
import { listRecurringRequests } from "./recurring-requests";
import { addTemplateRequest, listTemplateRequests, removeTemplateRequest } from "./template-requests";

// A template's request list: a portal created from the template gets each request as a task
// through createTask (one task.created each) and each recurring one as its own schedule, in the
// transaction that creates the portal, besides the template's folders.

async function context() {
  const org = await createTestOrg({ plan: "business" });
  const member = await createTestUser({ orgId: org.id, role: "member" });
  const viewer = await getUserViewer(member.id, org.id);
  const template = await createTestPortal({ orgId: org.id, name: "Onboarding template", isTemplate: true, tags: ["new"] });
  await db.fileEntry.create({ data: { orgId: org.id, portalId: template.id, isFolder: true, name: "Tax returns", registeredAt: new Date() } });
  return { org, member, viewer, template };
}

describe("template request lists", () => {
  it("make each request of the list a task of the new portal, relative due dates from its creation, and recurring ones its schedules", async () => {
    const { org, member, viewer, template } = await context();
    await addTemplateRequest({
      viewer,
      portalId: template.id,
      spec: {
        title: "Engagement questions",
        action_type: "Fill Form",
        due: { kind: "relative", days: 7 },
        form_fields: [{ label: "Company name", kind: "text", required: true }],
      },
    });
    await addTemplateRequest({ viewer, portalId: template.id, spec: { title: "Upload your ID", action_type: "File Request" } });
    await addTemplateRequest({
      viewer,
      portalId: template.id,
      spec: { title: "Monthly receipts", action_type: "File Request", due: { kind: "relative", days: 5 } },
      recurrence: { frequency: "monthly", day_of_month: 1 },
    });
    const list = await listTemplateRequests({ viewer, portalId: template.id });
    expect(list.map((r) => [r.spec.title, r.frequency])).toEqual([
      ["Engagement questions", null],
      ["Upload your ID", null],
      ["Monthly receipts", "monthly"],
    ]);

    const before = Date.now();
    const portal = await createPortal({ viewer, name: "Acme Ltd", templateId: template.id });
    const tasks = await db.task.findMany({ where: { portalId: portal.id }, include: { formFields: true }, orderBy: { title: "asc" } });
    expect(tasks.map((t) => [t.title, t.actionType, t.createdById])).toEqual([
      ["Engagement questions", "FillForm", member.id],
      ["Upload your ID", "FileRequest", member.id],
    ]);
    expect(tasks[0]!.formFields.map((f) => f.label)).toEqual(["Company name"]);
    const day = new Date(before);
    expect(tasks[0]!.dueDate?.toISOString()).toBe(new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate() + 8) - 1000).toISOString());
    const events = await db.event.findMany({ where: { portalId: portal.id }, orderBy: { createdAt: "asc" } });
    expect(events.map((e) => e.type)).toEqual(["portal.created", "task.created", "task.created"]);
    expect(await db.auditLog.count({ where: { portalId: portal.id, action: "task.created" } })).toBe(2);
    expect(await db.fileEntry.count({ where: { portalId: portal.id, isFolder: true, name: "Tax returns" } })).toBe(1);
    const schedules = await listRecurringRequests({ viewer, portalId: portal.id });
    expect(schedules).toMatchObject([{ title: "Monthly receipts", frequency: "monthly", dayOfMonth: 1, status: "active" }]);
    expect(schedules[0]!.nextOccurrence).not.toBeNull();

    // A template made from the template gets nothing made; the template itself has no tasks.
    const copy = await createPortal({ viewer, name: "Second template", templateId: template.id, isTemplate: true });
    expect(await db.task.count({ where: { portalId: { in: [copy.id, template.id] } } })).toBe(0);
    expect(await db.event.count({ where: { orgId: org.id, type: "task.created" } })).toBe(2);
  });

  it("are a template's only; removing one leaves what was made", async () => {
    const { org, viewer, template } = await context();
    const plain = await createTestPortal({ orgId: org.id });
    const refused = await addTemplateRequest({ viewer, portalId: plain.id, spec: { title: "x" } }).catch((e: unknown) => e);
    expect(isAppError(refused) && refused.message).toBe("portalId: Only a template has a request list");
    const { templateRequestId } = await addTemplateRequest({ viewer, portalId: template.id, spec: { title: "Kick-off call" } });
    const portal = await createPortal({ viewer, name: "Beta", templateId: template.id });
    await removeTemplateRequest({ viewer, templateRequestId });
    expect(await listTemplateRequests({ viewer, portalId: template.id })).toEqual([]);
    expect(await db.task.count({ where: { portalId: portal.id, title: "Kick-off call" } })).toBe(1);
    const again = await removeTemplateRequest({ viewer, templateRequestId }).catch((e: unknown) => e);
    expect(isAppError(again) && again.code).toBe("not_found");
  });
});
