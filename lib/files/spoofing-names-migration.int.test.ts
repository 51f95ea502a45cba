import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestOrg, createTestPortal } from "@/lib/test-support/fixtures";
import { displayNameProblem } from "@/lib/text";

// Names stored before control, invisible and bidirectional formatting characters were refused are
// rewritten by a migration: each such character becomes U+FFFD. Its statements, run again here
// over rows written as they could have been, agree with the rule that refuses new names.

const MIGRATION = path.join(process.cwd(), "prisma/migrations/20261125045000_neutralise_spoofing_characters_in_names/migration.sql");

describe("the migration that neutralises stored names", () => {
  it("replaces every refused character with U+FFFD in file, folder and portal names, and leaves clean names alone", async () => {
    const org = await createTestOrg();
    const spoofed = await createTestPortal({ orgId: org.id, name: "Acme \u2067Ltd\u2069" });
    const clean = await createTestPortal({ orgId: org.id, name: "می\u200Cخواهم \u{1F468}\u200D\u{1F469}" });
    const file = await db.fileEntry.create({
      data: { orgId: org.id, portalId: spoofed.id, name: "invoice\u202Efdp.exe", extension: "exe", storageKey: `test/${org.id}/a` },
    });
    const folder = await db.fileEntry.create({ data: { orgId: org.id, portalId: spoofed.id, isFolder: true, name: "Tax\u200B\u00AD\nreturns\u{E0041}" } });
    const other = await db.fileEntry.create({
      data: { orgId: org.id, portalId: clean.id, name: "report.pdf", extension: "pdf", storageKey: `test/${org.id}/b` },
    });

    for (const statement of (await readFile(MIGRATION, "utf8")).split(";").filter((s) => /UPDATE/.test(s))) await db.$executeRawUnsafe(statement);

    const names = async () => ({
      portals: (await db.portal.findMany({ where: { orgId: org.id }, orderBy: { createdAt: "asc" } })).map((p) => p.name),
      entries: await Promise.all([file, folder, other].map(async (e) => (await db.fileEntry.findUniqueOrThrow({ where: { id: e.id } })).name)),
    });
    const after = await names();
    expect(after).toEqual({
      portals: ["Acme \uFFFDLtd\uFFFD", "می\u200Cخواهم \u{1F468}\u200D\u{1F469}"],
      entries: ["invoice\uFFFDfdp.exe", "Tax\uFFFD\uFFFD\uFFFDreturns\uFFFD", "report.pdf"],
    });
    for (const name of [...after.portals, ...after.entries]) expect(displayNameProblem(name)).toBeNull();
  });
});
