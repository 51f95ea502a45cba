import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { getFileUrl } from "@/lib/files/file-url";
import { startUpload } from "@/lib/files/start-upload";
import { createTestGuest, createTestPortal } from "@/lib/test-support/fixtures";
import { createMemberContext, outcomeOf } from "@/lib/test-support/outcome";
import { removeObjectsAfterEach, uploadForTask } from "@/lib/test-support/storage";
import { createTask } from "./create-task";
import { setTaskFormFields } from "./form-fields";
import { answerQuestion, markGeneralTaskDone, submitTaskForm } from "./task-answers";
import { getTaskDetails } from "./task-details";

// The client's side of tasks against PostgreSQL (and S3 for uploads): what a guest does, what is
// stored, what fires, and what is refused with nothing stored.

const cleanUp = removeObjectsAfterEach();

async function setup(permissions: object = {}) {
  const ctx = await createMemberContext();
  cleanUp(ctx.org.id);
  const guestUser = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id, name: "Gina Guest" });
  await db.portalGuest.updateMany({ where: { userId: guestUser.id }, data: { permissions } });
  const guest = await getUserViewer(guestUser.id, ctx.org.id);
  const task = async (action_type: "General" | "Question?" | "File Request" | "Fill Form") =>
    (await createTask({ viewer: ctx.viewer, portalId: ctx.portal.id, title: `${action_type} task`, action_type })).taskId;
  const events = (type: string) => db.event.findMany({ where: { orgId: ctx.org.id, type }, orderBy: { createdAt: "asc" } });
  return { ...ctx, guestUser, guest, task, events };
}

describe("File Request fulfilled by a guest upload", () => {
  it("the first registered upload completes it once, task.completed carries file_id; later uploads are linked too", async () => {
    const s = await setup();
    const taskId = await s.task("File Request");
    const first = await uploadForTask(s.guest, s.portal.id, taskId, "passport.txt");
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Done", completedById: s.guestUser.id });
    const second = await uploadForTask(s.guest, s.portal.id, taskId, "utility-bill.txt");
    const completed = await s.events("task.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data).toEqual({
      task_id: taskId,
      action_type: "File Request",
      status: "Done",
      file_id: first.id,
      attached_files: [{ file_id: first.id, name: "passport.txt" }],
    });
    const audit = await db.auditLog.findFirstOrThrow({ where: { orgId: s.org.id, action: "task.completed" } });
    expect(audit.metadata).toEqual({ file_id: first.id });
    // The member sees both files linked to the task.
    const details = await getTaskDetails({ viewer: s.viewer, portalId: s.portal.id, taskId });
    expect(details.files.map((f) => f.id)).toEqual([first.id, second.id]);
  });

  it("a member's upload against it does not complete it (only the client's fulfils the request)", async () => {
    const s = await setup();
    const taskId = await s.task("File Request");
    await uploadForTask(s.viewer, s.portal.id, taskId, "template.txt");
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Open" });
    expect(await s.events("task.completed")).toHaveLength(0);
  });

  it("a guest without upload permission is refused and the task stays open", async () => {
    const s = await setup({ upload: false });
    const taskId = await s.task("File Request");
    expect(await outcomeOf(startUpload({ viewer: s.guest, portalId: s.portal.id, filename: "a.txt", taskId }))).toBe(
      "forbidden: Guests of this portal may not upload files",
    );
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Open" });
  });
});

describe("Question", () => {
  it("the answer is stored, shown to members, and completes the task once", async () => {
    const s = await setup();
    const taskId = await s.task("Question?");
    expect(await outcomeOf(answerQuestion({ viewer: s.guest, taskId, text: "   " }))).toBe("invalid_request: answer: Write your answer");
    expect(await db.taskAnswer.count({ where: { taskId } })).toBe(0);
    expect(await answerQuestion({ viewer: s.guest, taskId, text: "  Our fiscal year ends in March.  " })).toBe(true);
    const details = await getTaskDetails({ viewer: s.viewer, portalId: s.portal.id, taskId });
    expect(details.answers).toMatchObject([{ fieldId: null, value: "Our fiscal year ends in March.", by: { id: s.guestUser.id, name: "Gina Guest" } }]);
    expect(await s.events("task.completed")).toHaveLength(1);
    expect(await outcomeOf(answerQuestion({ viewer: s.guest, taskId, text: "Again" }))).toBe("conflict: This task is already done");
    expect(await db.taskAnswer.count({ where: { taskId } })).toBe(1);
    expect(await db.auditLog.count({ where: { orgId: s.org.id, action: "task.answered", targetId: taskId } })).toBe(1);
  });

  it("a guest of another portal gets not-found; a guest not assigned gets forbidden; nothing is stored", async () => {
    const s = await setup();
    const taskId = await s.task("Question?");
    const elsewhere = await createTestPortal({ orgId: s.org.id });
    const outsider = await getUserViewer((await createTestGuest({ orgId: s.org.id, portalId: elsewhere.id })).id, s.org.id);
    expect(await outcomeOf(answerQuestion({ viewer: outsider, taskId, text: "Hi" }))).toBe("not_found: Task not found");
    const colleague = await createTestGuest({ orgId: s.org.id, portalId: s.portal.id });
    await db.taskAssignee.create({ data: { taskId, userId: colleague.id, type: "guest", email: colleague.email } });
    expect(await outcomeOf(answerQuestion({ viewer: s.guest, taskId, text: "Hi" }))).toBe("forbidden: This task is assigned to someone else");
    expect(await db.taskAnswer.count({ where: { taskId } })).toBe(0);
  });
});

describe("Fill Form", () => {
  it("validates on the server (required, number, date, choice): a problem names the field and stores nothing; a valid form stores every answer and completes", async () => {
    const s = await setup();
    const taskId = await s.task("Fill Form");
    const fields = await setTaskFormFields({
      viewer: s.viewer,
      taskId,
      fields: [
        { label: "Company name", kind: "text", required: true },
        { label: "Employees", kind: "number" },
        { label: "Year end", kind: "date", required: true },
        { label: "Entity type", kind: "select", options: ["LLC", "Corporation"], required: true },
        { label: "I confirm the figures", kind: "checkbox", required: true },
        { label: "Notes", kind: "textarea" },
      ],
    });
    const [company, employees, yearEnd, entity, confirm] = fields.map((f) => f.id);
    const valid = { [company!]: "Acme Ltd", [employees!]: "12", [yearEnd!]: "2026-03-31", [entity!]: "LLC", [confirm!]: "on" };
    const attempt = (values: Record<string, string>) => outcomeOf(submitTaskForm({ viewer: s.guest, taskId, values }));
    expect(await attempt({ ...valid, [company!]: " " })).toBe(`invalid_request: field_${company}: Company name: This field is required`);
    expect(await attempt({ ...valid, [employees!]: "a dozen" })).toBe(`invalid_request: field_${employees}: Employees: Enter a number, like 1200 or 12.5`);
    expect(await attempt({ ...valid, [yearEnd!]: "2026-02-30" })).toBe(`invalid_request: field_${yearEnd}: Year end: Enter a date as YYYY-MM-DD`);
    expect(await attempt({ ...valid, [entity!]: "Partnership" })).toBe(`invalid_request: field_${entity}: Entity type: Choose one of: LLC, Corporation`);
    expect(await attempt({ ...valid, [confirm!]: "" })).toBe(`invalid_request: field_${confirm}: I confirm the figures: Tick this box to continue`);
    expect(await attempt({ ...valid, "00000000-0000-4000-8000-000000000000": "x" })).toBe(
      "invalid_request: values: 00000000-0000-4000-8000-000000000000 is not a field of this form",
    );
    expect(await db.taskAnswer.count({ where: { taskId } })).toBe(0);
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Open" });

    expect(await attempt(valid)).toBe("ok");
    const details = await getTaskDetails({ viewer: s.viewer, portalId: s.portal.id, taskId });
    expect(Object.fromEntries(details.answers.map((a) => [a.fieldId, a.value]))).toEqual({
      [company!]: "Acme Ltd",
      [employees!]: "12",
      [yearEnd!]: "2026-03-31",
      [entity!]: "LLC",
      [confirm!]: "true",
      [fields[5]!.id]: "",
    });
    expect(await db.task.findUniqueOrThrow({ where: { id: taskId } })).toMatchObject({ status: "Done" });
    expect(await s.events("task.completed")).toHaveLength(1);
  });
});

describe("General and download permission", () => {
  it("a guest marks a General task done, once; a Question cannot be marked done without an answer", async () => {
    const s = await setup();
    const general = await s.task("General");
    const question = await s.task("Question?");
    expect(await markGeneralTaskDone({ viewer: s.guest, taskId: general })).toBe(true);
    expect(await outcomeOf(markGeneralTaskDone({ viewer: s.guest, taskId: general }))).toBe("conflict: This task is already done");
    expect(await outcomeOf(markGeneralTaskDone({ viewer: s.guest, taskId: question }))).toBe("invalid_request: taskId: This is not a General task");
    expect(await s.events("task.completed")).toHaveLength(1);
  });

  it("a guest without download permission gets no download URL (the download route's check)", async () => {
    const s = await setup({ download: false });
    const taskId = await s.task("File Request");
    const file = await uploadForTask(s.guest, s.portal.id, taskId, "mine.txt");
    expect(await outcomeOf(getFileUrl({ viewer: s.guest, portalId: s.portal.id, fileId: file.id }))).toBe(
      "forbidden: Guests of this portal may not download files",
    );
    expect(await outcomeOf(getFileUrl({ viewer: s.guest, portalId: s.portal.id, fileId: file.id, mode: "preview" }))).toBe(
      "forbidden: Guests of this portal may not download files",
    );
    expect(await outcomeOf(getFileUrl({ viewer: s.viewer, portalId: s.portal.id, fileId: file.id }))).toBe("ok");
  });
});
