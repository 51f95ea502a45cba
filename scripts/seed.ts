import { PutObjectCommand } from "@aws-sdk/client-s3";
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { bucket, fileStorageKey, s3 } from "@/lib/storage/s3";
import { seedGuestDemo } from "./seed-guest";

// The demo organization for `npm run dev` and the end-to-end tests. Idempotent: a database that
// already has the demo admin is left as it is, so restarting keeps whatever was changed.

export const DEMO = {
  orgName: "Demo Accounting LLP",
  password: "demo-password-1",
  admin: { email: "admin@demo.test", name: "Avery Admin" },
  member: { email: "member@demo.test", name: "Morgan Member" },
  guest: { email: "guest@demo.test", name: "Gray Guest" },
} as const;

export interface SeedResult {
  created: boolean;
  orgId: string;
}

async function putDemoObject(orgId: string, fileId: string, body: string, contentType: string): Promise<string> {
  const key = fileStorageKey(orgId, fileId);
  await s3().send(new PutObjectCommand({ Bucket: bucket(), Key: key, Body: body, ContentType: contentType }));
  return key;
}

export async function seedDemo(): Promise<SeedResult> {
  const existing = await db.user.findUnique({
    where: { email: DEMO.admin.email },
    select: { memberships: { select: { orgId: true }, take: 1 } },
  });
  const existingOrg = existing?.memberships[0]?.orgId;
  if (existingOrg) return { created: false, orgId: existingOrg };

  const passwordHash = await hashPassword(DEMO.password);
  const org = await db.organization.create({ data: { name: DEMO.orgName, plan: "enterprise", apiEnabled: true } });
  const [admin, member, guest] = await Promise.all(
    [DEMO.admin, DEMO.member, DEMO.guest].map((u) => db.user.create({ data: { email: u.email, name: u.name, passwordHash, emailVerified: new Date() } })),
  );
  if (!admin || !member || !guest) throw new Error("Demo users were not created");
  await db.membership.createMany({
    data: [
      { orgId: org.id, userId: admin.id, role: "admin" },
      { orgId: org.id, userId: member.id, role: "member" },
    ],
  });

  const states = await Promise.all(
    ["Onboarding", "Waiting on client", "In review", "Complete"].map((name, position) => db.workflowState.create({ data: { orgId: org.id, name, position } })),
  );

  const portals = [
    { name: "Acme Ltd — 2026 year end", tags: ["year-end", "corporate"], state: states[1] },
    { name: "Jordan Smith — personal tax", tags: ["personal-tax"], state: states[0] },
  ];
  for (const [index, p] of portals.entries()) {
    const portal = await db.portal.create({
      data: {
        orgId: org.id,
        name: p.name,
        tags: p.tags,
        workflowStateId: p.state?.id ?? null,
        createdById: admin.id,
        lastActivityAt: new Date(),
      },
    });
    const folder = (name: string, parentId: string | null = null) =>
      db.fileEntry.create({ data: { orgId: org.id, portalId: portal.id, name, isFolder: true, parentId, registeredAt: new Date() } });
    const statements = await folder("Statements");
    await folder("Receipts");
    await folder("Q4", statements.id);

    const fileId = randomUUID();
    const body = `Demo document for ${p.name}\n`;
    const storageKey = await putDemoObject(org.id, fileId, body, "text/plain");
    await db.fileEntry.create({
      data: {
        id: fileId,
        orgId: org.id,
        portalId: portal.id,
        parentId: statements.id,
        name: "engagement-letter.txt",
        extension: "txt",
        contentType: "text/plain",
        size: Buffer.byteLength(body),
        storageKey,
        uploadedById: admin.id,
        registeredAt: new Date(),
      },
    });

    if (index === 0) {
      await db.portalGuest.create({
        data: {
          orgId: org.id,
          portalId: portal.id,
          userId: guest.id,
          permissions: org.defaultGuestPermissions ?? {},
          invitedById: admin.id,
          acceptedAt: new Date(),
        },
      });
    }
    const due = new Date(Date.now() + (10 + index) * 24 * 60 * 60 * 1000);
    await db.task.create({
      data: {
        orgId: org.id,
        portalId: portal.id,
        title: "Upload your bank statements",
        actionType: "FileRequest",
        dueDate: due,
        createdById: admin.id,
        assignees: index === 0 ? { create: { userId: guest.id, type: "guest", name: guest.name, email: guest.email } } : undefined,
      },
    });
    await db.task.create({
      data: { orgId: org.id, portalId: portal.id, title: "Confirm your address", actionType: "Question", createdById: member.id },
    });
  }
  await seedGuestDemo({ passwordHash });
  return { created: true, orgId: org.id };
}

// `npm run db:seed`
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  seedDemo()
    .then((r) => {
      process.stdout.write(r.created ? `Seeded the demo organization ${r.orgId}\n` : `Demo organization already present (${r.orgId})\n`);
      process.exit(0);
    })
    .catch((e: unknown) => {
      process.stderr.write(`Seeding failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
