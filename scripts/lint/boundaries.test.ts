import { spawnSync } from "node:child_process";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The import-boundary rules of eslint.config.mjs, shown on fixtures that break them (and on
// imports that are allowed), so a change to the config that lets a forbidden direction through
// fails here.

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

// The first lint builds ESLint's config and a spawned Node loads tsx: seconds each on a busy machine.
describe("import boundaries", { timeout: 30_000 }, () => {
  it.each([
    ["a domain module importing the API layer", "lib/portals/fixture.ts", 'import { apiRoute } from "@/lib/api";\nexport const x = apiRoute;\n'],
    [
      "a domain module importing an API module by relative path",
      "lib/portals/fixture.ts",
      'import { linkHeader } from "../api/pagination";\nexport const x = linkHeader;\n',
    ],
    ["a domain module importing a route", "lib/tasks/fixture.ts", 'import { GET } from "@/app/api/v1/me/route";\nexport const x = GET;\n'],
    ["a domain module importing the Inngest SDK", "lib/events/fixture.ts", 'import { Inngest } from "inngest";\nexport const x = Inngest;\n'],
    ["a domain module importing the Inngest client", "lib/webhooks/fixture.ts", 'import { inngest } from "@/inngest/client";\nexport const x = inngest;\n'],
    ["the API layer importing a page", "lib/api/fixture.ts", 'import Page from "@/app/page";\nexport const x = Page;\n'],
    [
      "a page reading the database",
      "app/(web)/org/[orgId]/fixture/page.tsx",
      'import { db } from "@/lib/db";\nexport default async function Page() { return <p>{await db.portal.count()}</p>; }\n',
    ],
    [
      "a component importing a server action from app/",
      "components/files/fixture.tsx",
      'import { createFolderAction } from "@/app/(web)/org/[orgId]/vault/[portalId]/file-actions";\nexport const x = createFolderAction;\n',
    ],
    ["a component reading the database", "components/fixture.tsx", 'import { db } from "@/lib/db";\nexport const x = db;\n'],
    ["a domain module importing a component", "lib/portals/fixture.ts", 'import { Button } from "@/components/ui/button";\nexport const x = Button;\n'],
    ["a domain test importing a route", "lib/portals/fixture.test.ts", 'import { GET } from "@/app/api/v1/me/route";\nexport const x = GET;\n'],
    ["a domain test importing the Inngest client", "lib/webhooks/fixture.int.test.ts", 'import "@/inngest/client";\nexport const x = 1;\n'],
    ["a route handler reading the database", "app/api/v1/fixture/route.ts", 'import { db } from "@/lib/db";\nexport const GET = () => db.portal.count();\n'],
  ])("refuses %s", async (_name, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      "a domain module importing another domain and the database",
      "lib/portals/fixture.ts",
      'import { db } from "@/lib/db";\nimport { splitPage } from "@/lib/pagination";\nexport const x = [db, splitPage];\n',
    ],
    [
      "the API layer importing the domain",
      "lib/api/fixture.ts",
      'import { createPortal } from "@/lib/portals/create-portal";\nexport const x = createPortal;\n',
    ],
    ["a route handler importing the API layer", "app/api/v1/fixture/route.ts", 'import { apiRoute } from "@/lib/api";\nexport const x = apiRoute;\n'],
    ["the outbox relay's tests loading the Inngest client", "lib/events/fixture.int.test.ts", 'import "@/inngest/client";\nexport const x = 1;\n'],
    [
      "a page passing a component its server action",
      "app/(web)/org/[orgId]/fixture/page.tsx",
      'import { AccountControls } from "@/components/account-controls";\nimport { signOutAction } from "@/app/sign-in/actions";\nexport const x = [AccountControls, signOutAction];\n',
    ],
    [
      "an Inngest function importing the domain and the SDK",
      "inngest/functions/fixture.ts",
      'import { Inngest } from "inngest";\nimport { db } from "@/lib/db";\nexport const x = [Inngest, db];\n',
    ],
  ])("allows %s", async (_name, filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([]);
  });
});

describe('import "server-only"', { timeout: 30_000 }, () => {
  // The database, key and storage modules are marked server-only: bundled for the browser (a
  // client component importing them, directly or not) they fail the build; run by Node outside
  // the react-server condition they throw. Scripts and tests that use them run with the condition.
  it.each(["lib/db.ts", "lib/crypto.ts", "lib/storage/s3.ts", "lib/oauth/signing-keys.ts"])("%s refuses to load outside the server", (file) => {
    const load = (conditions: string[]) =>
      spawnSync(process.execPath, [...conditions, "--import", "tsx", "--input-type=module", "-e", `await import(${JSON.stringify(`./${file}`)})`], {
        cwd: process.cwd(),
        encoding: "utf8",
      });
    const outside = load([]);
    expect(outside.status).not.toBe(0);
    expect(outside.stderr).toContain("This module cannot be imported from a Client Component module");
    expect(load(["--conditions=react-server"]).status).toBe(0);
  });
});
