import path from "node:path";
import { ESLint } from "eslint";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// One way to the database (docs/database.md): the lint refuses SQL text with hand-written row
// types in lib/, and a statement of the typed layer (lib/sql.ts) that names a column the schema
// does not have fails the typecheck. Both shown on fixtures.

const eslint = new ESLint({ cwd: process.cwd() });

async function rawSqlMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-syntax").map((m) => m.message);
}

describe("the lint: no SQL text with hand-written row types in lib/", { timeout: 30_000 }, () => {
  it.each([
    ["a raw query with a row type", 'import { db } from "@/lib/db";\nexport const f = () => db.$queryRaw<{ id: string }[]>`SELECT id FROM "Portal"`;\n'],
    ["an unsafe raw query", 'import { db } from "@/lib/db";\nexport const f = () => db.$queryRawUnsafe<{ id: string }[]>(\'SELECT id FROM "Portal"\');\n'],
    [
      "a raw statement on a transaction",
      'import type { Tx } from "@/lib/db";\nexport const f = (tx: Tx) => tx.$executeRaw`UPDATE "Portal" SET name = name`;\n',
    ],
    ["lib/db's statement sender", 'import { query } from "@/lib/db";\nexport const f = () => query<{ id: string }>(\'SELECT id FROM "Portal"\');\n'],
    ["Prisma's SQL fragments", 'import { Prisma } from "@/lib/generated/prisma/client";\nexport const f = Prisma.sql`x`;\n'],
    ["Kysely's SQL text", 'import { sql } from "kysely";\nexport const f = sql<{ id: string }>`SELECT id FROM "Portal"`;\n'],
  ])("refuses %s", async (_name, code) => {
    expect(await rawSqlMessages("lib/portals/fixture.ts", code)).toHaveLength(1);
  });

  it.each(["lib/api/rate-limit.ts", "lib/oauth/token/refresh.ts", "lib/portals/portal-record.ts", "lib/files/folder-view.ts"])(
    "refuses it in the hot paths' files too (%s): no file of lib/ is exempt",
    async (filePath) => {
      const code = 'import { query } from "@/lib/db";\nexport const f = () => query<{ id: string }>(\'SELECT id FROM "Portal"\');\n';
      expect(await rawSqlMessages(filePath, code)).toHaveLength(1);
    },
  );

  it("allows SQL text in the layer itself (lib/sql.ts)", async () => {
    expect(await rawSqlMessages("lib/sql.ts", 'import { sql } from "kysely";\nexport const f = sql<number>`1`;\n')).toEqual([]);
  });

  it("allows a statement of the typed layer", async () => {
    const code =
      'import { rows, sql } from "@/lib/sql";\nexport const f = (id: string) => rows(sql.selectFrom("Portal").select("id").where("id", "=", id).forUpdate());\n';
    expect(await rawSqlMessages("lib/portals/fixture.ts", code)).toEqual([]);
  });
});

/** Type-checks `code` as lib/portals/fixture.ts of the project; returns the error messages. */
function typeErrors(code: string): string[] {
  const configPath = path.resolve("tsconfig.json");
  const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error("tsconfig.json could not be read");
  const fixture = path.resolve("lib/portals/fixture.ts");
  const options = { ...config.options, incremental: false, noEmit: true };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (path.resolve(name) === fixture ? code : readFile(name));
  host.fileExists = (name) => path.resolve(name) === fixture || fileExists(name);
  host.getSourceFile = (name, language, onError, create) =>
    path.resolve(name) === fixture ? ts.createSourceFile(name, code, language) : getSourceFile(name, language, onError, create);
  const program = ts.createProgram([fixture], options, host);
  return ts.getPreEmitDiagnostics(program, program.getSourceFile(fixture)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

describe("the typecheck: a statement names only columns the schema has", () => {
  it("fails on a column that does not exist, and passes once it names a real one", () => {
    const statement = (column: string) =>
      `import { rows, sql } from "@/lib/sql";\nexport const f = (id: string) => rows(sql.selectFrom("Portal").select(["id", "${column}"]).where("${column}", "=", id));\n`;
    const errors = typeErrors(statement("nameBeforeRename"));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join("\n")).toMatch(/nameBeforeRename/);
    expect(typeErrors(statement("name"))).toEqual([]);
  }, 120_000);
});
