import { describe, expect, it } from "vitest";
import { callRoute } from "@/test/routes/call-route";
import { eventsOf, tasksApi } from "@/test/routes/tasks-api";
import { POST as inviteGuests } from "@/app/api/v1/portals/[portalId]/guests/route";
import { db } from "@/lib/db";
import { createApiContext, createTestOrg, createTestPortal, createTestUser } from "@/lib/test-support/fixtures";

// The task extensions of the API (docs/api.md): a Fill Form's fields, a Sign Document's document
// and placement, assignee changes, set through the web's domain functions with the same checks.

async function context() {
  const ctx = await createApiContext();
  const portal = await createTestPortal({ orgId: ctx.org.id });
  return { ...ctx, portal, api: tasksApi(ctx.token) };
}
type Ctx = Awaited<ReturnType<typeof context>>;

async function registeredFile(ctx: Ctx, name: string, contentType: string, portalId = ctx.portal.id) {
  const extension = name.split(".").pop()!.toLowerCase();
  return db.fileEntry.create({ data: { orgId: ctx.org.id, portalId, name, extension, contentType, registeredAt: new Date() } });
}

async function taskOf(ctx: Ctx, taskId: string) {
  const list = await ctx.api.list(ctx.portal.id);
  expect(list.status).toBe(200);
  return list.json.find((t) => t.id === taskId)!;
}

const FIELDS = [
  { label: " Full name ", kind: "text", required: true },
  { label: "Residency", kind: "select", options: ["UK", "Elsewhere"] },
];
const STORED_FIELDS = [
  { id: expect.any(String), label: "Full name", kind: "text", required: true, options: [] },
  { id: expect.any(String), label: "Residency", kind: "select", required: false, options: ["UK", "Elsewhere"] },
];

describe("Fill Form fields through the API", () => {
  it("creates a Fill Form task with its fields and returns them in the list", async () => {
    const ctx = await context();
    const res = await ctx.api.create(ctx.portal.id, { title: "Your details", action_type: "Fill Form", form_fields: FIELDS });
    expect(res.status).toBe(201);
    const task = await taskOf(ctx, res.json.task_id);
    expect(task.form_fields).toEqual(STORED_FIELDS);
    expect(await db.taskFormField.count({ where: { taskId: res.json.task_id } })).toBe(2);
    expect((await db.auditLog.findMany({ where: { orgId: ctx.org.id, targetType: "task" }, orderBy: { createdAt: "asc" } })).map((a) => a.action)).toEqual([
      "task.created",
      "task.form_changed",
    ]);
  });

  it.each([
    [
      { action_type: "Fill Form", form_fields: [{ label: "Pick", kind: "select", options: ["One"] }] },
      "form_fields.0.options: A single choice needs at least 2 options",
    ],
    [{ action_type: "Fill Form", form_fields: [{ label: "X", kind: "html" }] }, "form_fields.0.kind: "],
    [{ action_type: "General", form_fields: FIELDS }, "form_fields: Only a Fill Form task has form fields"],
  ])("refuses %j with 400 naming the field and creates nothing", async (body, description) => {
    const ctx = await context();
    const res = await ctx.api.create(ctx.portal.id, { title: "Form", ...body });
    expect([res.status, res.json.error]).toEqual([400, "invalid_request"]);
    expect(res.json.error_description!.startsWith(description), res.json.error_description).toBe(true);
    expect(await db.task.count({ where: { orgId: ctx.org.id } })).toBe(0);
    expect(await eventsOf(ctx.org.id, "task.created")).toEqual([]);
  });

  it("replaces the fields with PATCH, and refuses once the form has answers (409)", async () => {
    const ctx = await context();
    const { json } = await ctx.api.create(ctx.portal.id, { title: "Your details", action_type: "Fill Form" });
    const res = await ctx.api.update(json.task_id, { form_fields: FIELDS });
    expect([res.status, res.json]).toEqual([200, { success: true, task_id: json.task_id }]);
    expect((await taskOf(ctx, json.task_id)).form_fields).toEqual(STORED_FIELDS);

    const bad = await ctx.api.update(json.task_id, { form_fields: [{ label: "", kind: "text" }] });
    expect([bad.status, bad.json.error_description]).toEqual([400, "form_fields.0.label: Must not be empty"]);
    const field = await db.taskFormField.findFirstOrThrow({ where: { taskId: json.task_id, position: 0 } });
    await db.taskAnswer.create({ data: { taskId: json.task_id, fieldId: field.id, userId: ctx.user.id, value: "Jane" } });
    const late = await ctx.api.update(json.task_id, { form_fields: [] });
    expect([late.status, late.json.error]).toEqual([409, "conflict"]);
    expect((await taskOf(ctx, json.task_id)).form_fields).toEqual(STORED_FIELDS);
  });

  it("refuses form_fields on another type with PATCH, changing nothing of the request", async () => {
    const ctx = await context();
    const { json } = await ctx.api.create(ctx.portal.id, { title: "General" });
    const res = await ctx.api.update(json.task_id, { title: "Renamed", form_fields: FIELDS });
    expect([res.status, res.json.error_description]).toEqual([400, "form_fields: Only a Fill Form task has form fields"]);
    expect((await taskOf(ctx, json.task_id)).title).toBe("General");
  });
});

describe("Sign Document's signers through the API", () => {
  it("creates a Sign Document with signers in order, lists them with their state, reorders with PATCH; bad ids and other types are 400", async () => {
    const ctx = await context();
    const pdf = await registeredFile(ctx, "Deed.pdf", "application/pdf");
    const [first, second] = [await createTestUser({ orgId: ctx.org.id, name: "Ann First" }), await createTestUser({ orgId: ctx.org.id, name: "Ben Second" })];
    const res = await ctx.api.create(ctx.portal.id, {
      title: "Sign the deed",
      action_type: "Sign Document",
      document_file_id: pdf.id,
      signers: [first.id, second.id],
      signing_order: "sequential",
    });
    expect(res.status).toBe(201);
    const signer = (u: typeof first) => ({ user_id: u.id, name: u.name, email: u.email, type: "member", signed_at: null });
    expect(await taskOf(ctx, res.json.task_id)).toMatchObject({ signers: [signer(first), signer(second)], signing_order: "sequential" });
    expect((await ctx.api.update(res.json.task_id, { signers: [second.id, first.id], signing_order: "parallel" })).status).toBe(200);
    expect(await taskOf(ctx, res.json.task_id)).toMatchObject({ signers: [signer(second), signer(first)], signing_order: "parallel" });
    const foreign = await createTestUser();
    const bad = await ctx.api.update(res.json.task_id, { signers: [first.id, foreign.id] });
    expect([bad.status, bad.json.error_description]).toEqual([400, `signers.1: ${foreign.id} is not a guest of this portal or a member of this organization`]);
    const general = await ctx.api.create(ctx.portal.id, { title: "General", signers: [first.id] });
    expect([general.status, general.json.error_description]).toEqual([400, "signers: Only a Sign Document task has signers"]);
    // Without signers: the contract's single signature.
    const single = await ctx.api.create(ctx.portal.id, { title: "Sign alone", action_type: "Sign Document", document_file_id: pdf.id });
    expect(await taskOf(ctx, single.json.task_id)).toMatchObject({ signers: [], signing_order: null });
  });
});

describe("Sign Document's document through the API", () => {
  it("creates a Sign Document task with its PDF (placement on a signature page by default) and changes the placement with PATCH", async () => {
    const ctx = await context();
    const pdf = await registeredFile(ctx, "Letter.pdf", "application/pdf");
    const res = await ctx.api.create(ctx.portal.id, { title: "Sign the letter", action_type: "Sign Document", document_file_id: pdf.id });
    expect(res.status).toBe(201);
    expect(await taskOf(ctx, res.json.task_id)).toMatchObject({ document_file_id: pdf.id, signature_placement: { signaturePage: true }, form_fields: [] });

    const box = { page: 1, x: 0.1, y: 0.8, width: 0.3, height: 0.1 };
    const moved = await ctx.api.update(res.json.task_id, { signature_placement: box });
    expect(moved.status).toBe(200);
    expect(await taskOf(ctx, res.json.task_id)).toMatchObject({ document_file_id: pdf.id, signature_placement: box });
    expect(await db.task.findUniqueOrThrow({ where: { id: res.json.task_id } })).toMatchObject({ documentFileId: pdf.id, signaturePlacement: box });
  });

  it("gives an API-created Sign Document task its document with PATCH", async () => {
    const ctx = await context();
    const pdf = await registeredFile(ctx, "Engagement.PDF", "application/octet-stream");
    const { json } = await ctx.api.create(ctx.portal.id, { title: "Sign", action_type: "Sign Document" });
    expect((await taskOf(ctx, json.task_id)).document_file_id).toBeNull();
    const placementOnly = await ctx.api.update(json.task_id, { signature_placement: { signaturePage: true } });
    expect([placementOnly.status, placementOnly.json.error_description]).toEqual([400, "document_file_id: Required: the task has no document to sign yet"]);
    const res = await ctx.api.update(json.task_id, { document_file_id: pdf.id });
    expect(res.status).toBe(200);
    expect(await taskOf(ctx, json.task_id)).toMatchObject({ document_file_id: pdf.id, signature_placement: { signaturePage: true } });
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "task.document_set", targetId: json.task_id } })).toBe(1);
  });

  it("refuses a file that is not a PDF of the portal, a bad placement and a document on another type: 400 naming the field, nothing created", async () => {
    const ctx = await context();
    const png = await registeredFile(ctx, "scan.png", "image/png");
    const otherPortal = await createTestPortal({ orgId: ctx.org.id });
    const elsewhere = await registeredFile(ctx, "elsewhere.pdf", "application/pdf", otherPortal.id);
    const pdf = await registeredFile(ctx, "ok.pdf", "application/pdf");
    const cases: [Record<string, unknown>, string][] = [
      [{ action_type: "Sign Document", document_file_id: png.id }, "document_file_id: The document to sign must be a PDF"],
      [{ action_type: "Sign Document", document_file_id: elsewhere.id }, "document_file_id: Not a file of this portal"],
      [{ action_type: "Sign Document", document_file_id: "not-a-uuid" }, "document_file_id: Not a file of this portal"],
      [{ action_type: "Sign Document", signature_placement: { signaturePage: true } }, "document_file_id: Required with signature_placement"],
      [{ action_type: "General", document_file_id: pdf.id }, "document_file_id: Only a Sign Document task has a document to sign"],
    ];
    for (const [body, description] of cases) {
      const res = await ctx.api.create(ctx.portal.id, { title: "Sign", ...body });
      expect([res.status, res.json.error, res.json.error_description], JSON.stringify(body)).toEqual([400, "invalid_request", description]);
    }
    const box = await ctx.api.create(ctx.portal.id, {
      title: "Sign",
      action_type: "Sign Document",
      document_file_id: pdf.id,
      signature_placement: { page: 1, x: 0.9, y: 0, width: 0.2, height: 0.1 },
    });
    expect([box.status, box.json.error_description]).toEqual([400, "signature_placement: The box must lie within the page"]);
    expect(await db.task.count({ where: { orgId: ctx.org.id } })).toBe(0);
    expect(await eventsOf(ctx.org.id, "task.created")).toEqual([]);
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, targetType: "task" } })).toBe(0);
  });
});

describe("assignee changes through PATCH", () => {
  it("assigns a guest found through the invitation's user_id, replaces one kind at a time, clears with []", async () => {
    const ctx = await context();
    const invited = await callRoute<{ user_id: string }>(inviteGuests, {
      path: `/api/v1/portals/${ctx.portal.id}/guests`,
      token: ctx.token,
      body: { email: "client@x.io", name: "Client" },
      params: { portalId: ctx.portal.id },
    });
    expect(invited.status).toBe(201);
    const guestId = invited.json.user_id;
    const member = await createTestUser({ orgId: ctx.org.id, role: "member", name: "Mia" });
    const { json } = await ctx.api.create(ctx.portal.id, { title: "Upload the statements", assigned_member_ids: [member.id] });

    const res = await ctx.api.update(json.task_id, { assigned_guest_ids: [guestId] });
    expect(res.status).toBe(200);
    const assignees = (await taskOf(ctx, json.task_id)).assignees;
    expect(assignees.map((a) => [a.user_id, a.type, a.email])).toEqual([
      [guestId, "guest", "client@x.io"],
      [member.id, "member", member.email],
    ]);

    const audit = await db.auditLog.findMany({ where: { orgId: ctx.org.id, action: "task.assignees_changed" } });
    expect(audit.map((a) => a.metadata)).toEqual([
      {
        assignees: [
          { user_id: guestId, type: "guest" },
          { user_id: member.id, type: "member" },
        ],
      },
    ]);
    // The same set again changes nothing.
    await ctx.api.update(json.task_id, { assigned_guest_ids: [guestId], assigned_member_ids: [member.id] });
    expect(await db.auditLog.count({ where: { orgId: ctx.org.id, action: "task.assignees_changed" } })).toBe(1);

    await ctx.api.update(json.task_id, { assigned_member_ids: [] });
    expect((await taskOf(ctx, json.task_id)).assignees.map((a) => a.user_id)).toEqual([guestId]);
    await ctx.api.update(json.task_id, { assigned_guest_ids: [] });
    expect((await taskOf(ctx, json.task_id)).assignees).toEqual([]);
  });

  it("refuses an id that is not a guest of the portal or a member of the organization: 400 naming it, assignees unchanged", async () => {
    const ctx = await context();
    const member = await createTestUser({ orgId: ctx.org.id, role: "member" });
    const stranger = await createTestUser({ orgId: (await createTestOrg()).id, role: "member" });
    const { json } = await ctx.api.create(ctx.portal.id, { title: "Task", assigned_member_ids: [member.id] });
    const guest = await ctx.api.update(json.task_id, { title: "Renamed", assigned_guest_ids: [stranger.id] });
    expect([guest.status, guest.json.error_description]).toEqual([400, `assigned_guest_ids: ${stranger.id} is not a guest of this portal`]);
    const other = await ctx.api.update(json.task_id, { assigned_member_ids: [stranger.id] });
    expect([other.status, other.json.error_description]).toEqual([400, `assigned_member_ids: ${stranger.id} is not a member of this organization`]);
    const task = await taskOf(ctx, json.task_id);
    expect([task.title, task.assignees.map((a) => a.user_id)]).toEqual(["Task", [member.id]]);
  });
});
