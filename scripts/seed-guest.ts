import { PutObjectCommand } from "@aws-sdk/client-s3";
import { randomUUID } from "node:crypto";
import { PDFDocument, StandardFonts, rgb } from "pdf-lib";
import { db } from "@/lib/db";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";

// The client's side of the demo (seeded with the demo organization, scripts/seed.ts): a second
// firm whose portal gives a client one task of every kind, with a member of its own and a second
// client who may not download; a third firm where the same client has a portal (the switcher
// across firms). The demo organization's own portals, guests and tasks stay as they were.

export const GUEST_DEMO = {
  client: { email: "client@demo.test", name: "Casey Client" },
  viewer: { email: "viewer@demo.test", name: "Val Viewer" },
  portalName: "Rivera Family — estate planning",
  orgName: "Northwind Advisors",
  member: { email: "nora@northwind.test", name: "Nora North" },
  privatePortalName: "Northwind — internal",
  /** A third firm where the same client has a portal (the switcher across firms). */
  secondOrgName: "Harbor Tax Partners",
  secondPortalName: "Casey Client — personal tax",
  tasks: {
    general: "Book your review meeting",
    question: "Which year did you move to your current address?",
    form: "Tell us about your household",
    fileRequest: "Upload a photo ID",
    sign: "Sign the engagement letter",
  },
} as const;

async function engagementLetter(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText("Engagement letter", { x: 56, y: 770, size: 22, font: bold, color: rgb(0.1, 0.1, 0.1) });
  const lines = [
    "Between Demo Accounting LLP and the Rivera family.",
    "We will prepare your estate planning documents and file them on your behalf.",
    "Fees are agreed in advance and invoiced when the work is complete.",
    "Please sign below to confirm that you agree to these terms.",
  ];
  lines.forEach((line, i) => page.drawText(line, { x: 56, y: 730 - i * 18, size: 11, font }));
  page.drawText("Client signature:", { x: 56, y: 160, size: 11, font: bold });
  page.drawRectangle({ x: 300, y: 120, width: 240, height: 70, borderColor: rgb(0.6, 0.6, 0.6), borderWidth: 0.8 });
  return Buffer.from(await doc.save());
}

export async function seedGuestDemo({ passwordHash }: { passwordHash: string }): Promise<void> {
  const [client, viewer, member] = await Promise.all(
    [GUEST_DEMO.client, GUEST_DEMO.viewer, GUEST_DEMO.member].map((u) =>
      db.user.create({ data: { email: u.email, name: u.name, passwordHash, emailVerified: new Date() } }),
    ),
  );
  if (!client || !viewer || !member) throw new Error("Demo clients were not created");
  const org = await db.organization.create({ data: { name: GUEST_DEMO.orgName } });
  const orgId = org.id;
  await db.membership.create({ data: { orgId, userId: member.id, role: "admin" } });
  const portal = await db.portal.create({ data: { orgId, name: GUEST_DEMO.portalName, tags: ["estate"], createdById: member.id, lastActivityAt: new Date() } });
  await db.portalGuest.createMany({
    data: [
      {
        orgId,
        portalId: portal.id,
        userId: client.id,
        permissions: { view: true, download: true, upload: true, delete: false },
        invitedById: member.id,
        acceptedAt: new Date(),
      },
      {
        orgId,
        portalId: portal.id,
        userId: viewer.id,
        permissions: { view: true, download: false, upload: true, delete: false },
        invitedById: member.id,
        acceptedAt: new Date(),
      },
    ],
  });

  const pdf = await engagementLetter();
  const fileId = randomUUID();
  const storageKey = fileStorageKey(orgId, fileId);
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: storageKey, Body: pdf, ContentType: "application/pdf" }));
  await db.fileEntry.create({
    data: {
      id: fileId,
      orgId,
      portalId: portal.id,
      name: "Engagement letter.pdf",
      extension: "pdf",
      contentType: "application/pdf",
      size: pdf.length,
      storageKey,
      uploadedById: member.id,
      registeredAt: new Date(),
    },
  });

  const day = 24 * 60 * 60 * 1000;
  const base = { orgId, portalId: portal.id, createdById: member.id };
  const forClient = { create: { userId: client.id, type: "guest" as const, name: client.name, email: client.email } };
  await db.task.create({
    data: {
      ...base,
      title: GUEST_DEMO.tasks.sign,
      actionType: "SignDocument",
      dueDate: new Date(Date.now() + 3 * day),
      documentFileId: fileId,
      signaturePlacement: { page: 1, x: 0.5, y: 0.76, width: 0.4, height: 0.09 },
      assignees: forClient,
    },
  });
  await db.task.create({
    data: {
      ...base,
      title: GUEST_DEMO.tasks.fileRequest,
      description: "A passport or driving licence, both sides.",
      actionType: "FileRequest",
      dueDate: new Date(Date.now() + 5 * day),
      assignees: forClient,
    },
  });
  await db.task.create({
    data: { ...base, title: GUEST_DEMO.tasks.question, actionType: "Question", dueDate: new Date(Date.now() + 7 * day), assignees: forClient },
  });
  await db.task.create({
    data: {
      ...base,
      title: GUEST_DEMO.tasks.form,
      actionType: "FillForm",
      dueDate: new Date(Date.now() + 9 * day),
      assignees: forClient,
      formFields: {
        create: [
          { position: 0, label: "Full legal name", kind: "text", required: true },
          { position: 1, label: "Number of children", kind: "number", required: true },
          { position: 2, label: "Marital status", kind: "select", options: ["Single", "Married", "Civil partnership", "Widowed"], required: true },
          { position: 3, label: "Anything else we should know", kind: "textarea" },
        ],
      },
    },
  });
  await db.task.create({
    data: {
      ...base,
      title: GUEST_DEMO.tasks.general,
      description: "Pick a time that suits you in the booking link we emailed.",
      actionType: "General",
      assignees: forClient,
    },
  });

  // A portal of the firm without these clients: opening it is not found for them.
  await db.portal.create({ data: { orgId, name: GUEST_DEMO.privatePortalName, createdById: member.id } });

  // The same client at a third firm: the guest home lists both firms (the demo organization's
  // own portals keep their guests as they were; other specs rely on that).
  const second = await db.organization.create({ data: { name: GUEST_DEMO.secondOrgName } });
  const secondPortal = await db.portal.create({ data: { orgId: second.id, name: GUEST_DEMO.secondPortalName, lastActivityAt: new Date() } });
  await db.portalGuest.create({ data: { orgId: second.id, portalId: secondPortal.id, userId: client.id, permissions: {}, acceptedAt: new Date() } });
  await db.task.create({
    data: {
      orgId: second.id,
      portalId: secondPortal.id,
      title: "Send the March receipts",
      actionType: "FileRequest",
      dueDate: new Date(Date.now() + 12 * day),
    },
  });
}
