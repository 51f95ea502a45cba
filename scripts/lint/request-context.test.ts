import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// eslint.config.mjs forbids Next.js's request-context APIs in every module the API dispatcher
// serves (it calls route handlers outside Next.js's request scope): shown on fixtures that use
// them, and on the places that may.

const eslint = new ESLint({ cwd: process.cwd() });

async function requestContextErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === "no-restricted-imports" || m.ruleId === "no-restricted-syntax")
    .map((m) => m.message)
    .filter((m) => m.includes("outside Next.js's request scope"));
}

const COOKIES_ROUTE = `import { cookies } from "next/headers";

export async function GET(): Promise<Response> {
  const session = (await cookies()).get("session");
  return Response.json({ session: session?.value ?? null });
}
`;

describe("request-context APIs in modules the API dispatcher serves", { timeout: 60_000 }, () => {
  it.each([
    ["cookies() in an /api/v1 route", "app/api/v1/portals/fixture/route.ts", COOKIES_ROUTE],
    ["headers() in the token endpoint", "app/oauth/token/fixture.ts", 'import { headers } from "next/headers";\nexport const x = headers;\n'],
    ["after() in the revocation endpoint", "app/oauth/revoke/route.ts", 'import { after } from "next/server";\nexport const x = after;\n'],
    ["connection() in the API layer", "lib/api/fixture.ts", 'import { connection } from "next/server";\nexport const x = connection;\n'],
    ["next/headers in a domain module", "lib/portals/fixture.ts", 'import { cookies } from "next/headers";\nexport const x = cookies;\n'],
    ["a dynamic import of next/headers in a domain module", "lib/tasks/fixture.ts", 'export const x = () => import("next/headers");\n'],
    ["next/headers in a job", "inngest/functions/fixture.ts", 'import { headers } from "next/headers";\nexport const x = headers;\n'],
    ["next/headers in the job engine's endpoint", "app/api/inngest/route.ts", 'import { headers } from "next/headers";\nexport const x = headers;\n'],
  ])("refuses %s", async (_name, filePath, code) => {
    expect(await requestContextErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    [
      "NextResponse in an /api/v1 route",
      "app/api/v1/portals/fixture/route.ts",
      'import { NextResponse } from "next/server";\nexport const GET = () => NextResponse.json({});\n',
    ],
    [
      "cookies() in a server action",
      "app/(web)/org/[orgId]/fixture/actions.ts",
      COOKIES_ROUTE.replace("export async function GET", "export async function read"),
    ],
    ["cookies() in the web's session layer", "lib/web/fixture.ts", 'import { cookies } from "next/headers";\nexport const x = cookies;\n'],
    ["headers() in the consent page's route", "app/oauth/consent/fixture.ts", 'import { headers } from "next/headers";\nexport const x = headers;\n'],
  ])("allows %s", async (_name, filePath, code) => {
    expect(await requestContextErrors(filePath, code)).toEqual([]);
  });
});
