import { randomUUID } from "node:crypto";
import type pg from "pg";
import { PDFDocument, rgb, StandardFonts } from "pdf-lib";
import { e2eDatabase } from "./server-env";

// Rows the files specs need that no page makes (a second organization), written straight into
// the e2e server's database, whose environment playwright.config.ts has the server write out;
// and a small real PDF to upload.

export async function withDb<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await e2eDatabase();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Organization B with an admin (who signs in with the demo password) and one portal holding one
 * file row: what a member of the demo organization must not reach.
 */
export async function createOtherOrganization(): Promise<{ orgId: string; portalId: string; fileId: string; adminEmail: string }> {
  return withDb(async (db) => {
    const orgId = randomUUID();
    const portalId = randomUUID();
    const fileId = randomUUID();
    const userId = randomUUID();
    const adminEmail = `admin-${orgId.slice(0, 8)}@other.test`;
    const { rows } = await db.query<{ passwordHash: string }>(`SELECT "passwordHash" FROM "User" WHERE email = 'admin@demo.test'`);
    await db.query(`INSERT INTO "Organization" (id, name, plan, "apiEnabled", "updatedAt") VALUES ($1, 'Other firm', 'enterprise', true, now())`, [orgId]);
    await db.query(`INSERT INTO "User" (id, email, name, "passwordHash", "emailVerified", "updatedAt") VALUES ($1, $2, 'Olive Other', $3, now(), now())`, [
      userId,
      adminEmail,
      rows[0]!.passwordHash,
    ]);
    await db.query(`INSERT INTO "Membership" (id, "orgId", "userId", role) VALUES ($1, $2, $3, 'admin')`, [randomUUID(), orgId, userId]);
    await db.query(`INSERT INTO "Portal" (id, "orgId", name, "updatedAt") VALUES ($1, $2, 'Other client', now())`, [portalId, orgId]);
    await db.query(
      `INSERT INTO "FileEntry" (id, "orgId", "portalId", name, extension, "contentType", size, "storageKey", "registeredAt", "updatedAt")
       VALUES ($1, $2, $3, 'secret.pdf', 'pdf', 'application/pdf', 10, $4, now(), now())`,
      [fileId, orgId, portalId, `orgs/${orgId}/files/${fileId}`],
    );
    return { orgId, portalId, fileId, adminEmail };
  });
}

/** A two-page PDF (a coloured box and a line of text on each page) that pdf.js draws and the signing accepts. */
export async function pdfBytes(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) {
    const page = doc.addPage([595, 842]);
    page.drawRectangle({ x: 50, y: 500, width: 495, height: 300, color: rgb(0.1, 0.2, 0.6) });
    page.drawText(`Engagement letter, page ${n}`, { x: 60, y: 450, size: 28, font });
  }
  return Buffer.from(await doc.save());
}
