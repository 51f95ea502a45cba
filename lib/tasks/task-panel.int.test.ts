import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestPortal } from "@/lib/test-support/fixtures";
import { createForeignAdmin, createMemberContext, outcomeOf } from "@/lib/test-support/outcome";
import { createTask } from "./create-task";
import { setTaskFormFields } from "./form-fields";
import { setSignDocument } from "./sign-document-task";
import { getTaskDetails } from "./task-details";

// The tasks panel beyond the API: a Fill Form task's fields, and one task's files, answers and reminder log.

const setup = () => createMemberContext();

describe("Fill Form fields", () => {
  it("stores the fields in order with kinds, options and required flags, and refuses bad ones naming them", async () => {
    const { org, viewer, portal, member } = await setup();
    const { taskId } = await createTask({ viewer, portalId: portal.id, title: "Client details", action_type: "Fill Form" });
    const fields = await setTaskFormFields({
      viewer,
      taskId,
      fields: [
        { label: " Full name ", kind: "text", required: true },
        { label: "Notes", kind: "textarea" },
        { label: "Children", kind: "number" },
        { label: "Born", kind: "date", required: true },
        { label: "Status", kind: "select", options: ["Single", "Married"] },
        { label: "Self-employed?", kind: "checkbox" },
      ],
    });
    expect(fields.map((f) => [f.position, f.label, f.kind, f.required, f.options])).toEqual([
      [0, "Full name", "text", true, []],
      [1, "Notes", "textarea", false, []],
      [2, "Children", "number", false, []],
      [3, "Born", "date", true, []],
      [4, "Status", "select", false, ["Single", "Married"]],
      [5, "Self-employed?", "checkbox", false, []],
    ]);
    // Replacing keeps only the new list.
    await setTaskFormFields({ viewer, taskId, fields: [{ label: "Only", kind: "text" }] });
    expect((await getTaskDetails({ viewer, portalId: portal.id, taskId })).formFields.map((f) => f.label)).toEqual(["Only"]);
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "task.form_changed" } })).toBe(2);

    expect(
      await outcomeOf(
        setTaskFormFields({
          viewer,
          taskId,
          fields: [
            { label: "A", kind: "text" },
            { label: "S", kind: "select", options: ["One"] },
          ],
        }),
      ),
    ).toBe("invalid_request: fields.1.options: A single choice needs at least 2 options");
    expect(await outcomeOf(setTaskFormFields({ viewer, taskId, fields: [{ label: " ", kind: "text" }] }))).toBe(
      "invalid_request: fields.0.label: Must not be empty",
    );
    expect(await outcomeOf(setTaskFormFields({ viewer, taskId, fields: [{ label: "X", kind: "html" as "text" }] }))).toMatch(
      /^invalid_request: fields\.0\.kind: /,
    );
    const general = await createTask({ viewer, portalId: portal.id, title: "General" });
    expect(await outcomeOf(setTaskFormFields({ viewer, taskId: general.taskId, fields: [] }))).toBe(
      "invalid_request: taskId: Only a Fill Form task has form fields",
    );
    const [field] = (await getTaskDetails({ viewer, portalId: portal.id, taskId })).formFields;
    await db.taskAnswer.create({ data: { taskId, fieldId: field!.id, userId: member.id, value: "Jane" } });
    expect(await outcomeOf(setTaskFormFields({ viewer, taskId, fields: [] }))).toBe("conflict: The form has answers; its fields can no longer change");
  });
});

describe("getTaskDetails", () => {
  it("gives a File Request's files, a Question's answer and the reminder log; another organization gets 404", async () => {
    const { org, member, viewer, portal } = await setup();
    const request = await createTask({ viewer, portalId: portal.id, title: "Bank statements", action_type: "File Request" });
    const linked = await db.fileEntry.create({
      data: { orgId: org.id, portalId: portal.id, name: "jan.pdf", taskId: request.taskId, registeredAt: new Date(), uploadedById: member.id },
    });
    await db.fileEntry.create({
      data: { orgId: org.id, portalId: portal.id, name: "gone.pdf", taskId: request.taskId, registeredAt: new Date(), deletedAt: new Date() },
    });
    await db.fileEntry.create({ data: { orgId: org.id, portalId: portal.id, name: "pending.pdf", taskId: request.taskId, status: "pending" } });
    const due = new Date(Date.now() + 3 * 24 * 3600 * 1000);
    await db.taskReminder.create({
      data: {
        taskId: request.taskId,
        offsetDays: -7,
        scheduledFor: new Date(due.getTime() - 7 * 24 * 3600 * 1000),
        status: "skipped",
        detail: "Nobody to remind",
      },
    });
    await db.taskReminder.create({
      data: {
        taskId: request.taskId,
        offsetDays: -3,
        scheduledFor: new Date(due.getTime() - 3 * 24 * 3600 * 1000),
        status: "sent",
        recipients: ["g@test.example"],
      },
    });

    const details = await getTaskDetails({ viewer, portalId: portal.id, taskId: request.taskId });
    expect(details.files.map((f) => f.id)).toEqual([linked.id]);
    expect(details.reminders.map((r) => [r.offsetDays, r.status, r.recipients])).toEqual([
      [-7, "skipped", []],
      [-3, "sent", ["g@test.example"]],
    ]);

    const question = await createTask({ viewer, portalId: portal.id, title: "Married in 2026?", action_type: "Question?" });
    await db.taskAnswer.create({ data: { taskId: question.taskId, userId: member.id, value: "Yes, in May" } });
    expect((await getTaskDetails({ viewer, portalId: portal.id, taskId: question.taskId })).answers).toMatchObject([
      { fieldId: null, value: "Yes, in May", by: { id: member.id } },
    ]);

    const foreign = await createForeignAdmin();
    expect(await outcomeOf(getTaskDetails({ viewer: foreign, portalId: portal.id, taskId: request.taskId }))).toBe("not_found: Task not found");
    expect(await outcomeOf(getTaskDetails({ viewer, portalId: portal.id, taskId: crypto.randomUUID() }))).toBe("not_found: Task not found");
  });
});

describe("Sign Document", () => {
  it("takes a PDF of the task's portal and a placement, shown in the details; refuses other files and bad boxes", async () => {
    const { org, viewer, portal } = await setup();
    const { taskId } = await createTask({ viewer, portalId: portal.id, title: "Sign the engagement letter", action_type: "Sign Document" });
    const pdf = await db.fileEntry.create({
      data: { orgId: org.id, portalId: portal.id, name: "Letter.PDF", extension: "pdf", contentType: "application/pdf", registeredAt: new Date() },
    });
    const png = await db.fileEntry.create({
      data: { orgId: org.id, portalId: portal.id, name: "scan.png", extension: "png", contentType: "image/png", registeredAt: new Date() },
    });
    const other = await createTestPortal({ orgId: org.id });
    const elsewhere = await db.fileEntry.create({ data: { orgId: org.id, portalId: other.id, name: "x.pdf", extension: "pdf", registeredAt: new Date() } });

    const box = { page: 2, x: 0.1, y: 0.8, width: 0.3, height: 0.1 };
    expect(await setSignDocument({ viewer, taskId, fileId: pdf.id, placement: box })).toEqual({ documentFileId: pdf.id, signaturePlacement: box });
    expect((await getTaskDetails({ viewer, portalId: portal.id, taskId })).document).toEqual({
      file: { id: pdf.id, name: "Letter.PDF", size: 0 },
      placement: box,
    });
    await setSignDocument({ viewer, taskId, fileId: pdf.id, placement: { signaturePage: true } });
    expect((await getTaskDetails({ viewer, portalId: portal.id, taskId })).document?.placement).toEqual({ signaturePage: true });
    expect(await db.auditLog.count({ where: { orgId: org.id, action: "task.document_set" } })).toBe(2);

    expect(await outcomeOf(setSignDocument({ viewer, taskId, fileId: png.id, placement: { signaturePage: true } }))).toBe(
      "invalid_request: document_file_id: The document to sign must be a PDF",
    );
    expect(await outcomeOf(setSignDocument({ viewer, taskId, fileId: elsewhere.id, placement: { signaturePage: true } }))).toBe(
      "invalid_request: document_file_id: Not a file of this portal",
    );
    expect(await outcomeOf(setSignDocument({ viewer, taskId, fileId: pdf.id, placement: { page: 1, x: 0.9, y: 0, width: 0.2, height: 0.1 } }))).toBe(
      "invalid_request: signature_placement: The box must lie within the page",
    );
    const general = await createTask({ viewer, portalId: portal.id, title: "General" });
    expect(await outcomeOf(setSignDocument({ viewer, taskId: general.taskId, fileId: pdf.id, placement: { signaturePage: true } }))).toBe(
      "invalid_request: document_file_id: Only a Sign Document task has a document to sign",
    );
    // A deleted document no longer shows.
    await db.fileEntry.update({ where: { id: pdf.id }, data: { deletedAt: new Date() } });
    expect((await getTaskDetails({ viewer, portalId: portal.id, taskId })).document).toBeNull();
  });
});
