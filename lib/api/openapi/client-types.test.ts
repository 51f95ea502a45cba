import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CLIENT_TYPES_FILE, clientTypesSource } from "@/scripts/lib/client-types";

// The typed client's types are generated from the OpenAPI document and committed: a change of an
// operation or a schema without `npm run client:generate` fails here.

describe("packages/client's generated types", () => {
  it("are what openapi-typescript makes of the current OpenAPI document", async () => {
    const root = fileURLToPath(new URL("../../..", import.meta.url));
    const committed = readFileSync(path.join(root, CLIENT_TYPES_FILE), "utf8");
    const fresh = await clientTypesSource();
    expect(committed === fresh, `${CLIENT_TYPES_FILE} is out of date: run npm run client:generate`).toBe(true);
    expect(fresh).toContain('"/api/v1/portals/{portalId}/guests"');
  }, 60_000);
});
