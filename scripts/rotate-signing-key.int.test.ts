import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
import { getActiveSigningKey } from "@/lib/oauth/signing-keys";
import { rotateSigningKeyCommand } from "./rotate-signing-key";

describe("npm run oauth:rotate-signing-key", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    resetEnvForTests();
  });

  it("makes a new active key and keeps the previous one published as retiring", async () => {
    const before = (await getActiveSigningKey()).kid;
    const lines: string[] = [];
    expect(await rotateSigningKeyCommand((line) => lines.push(line))).toBe(0);
    const active = await db.signingKey.findFirstOrThrow({ where: { status: "active" } });
    expect(active.id).not.toBe(before);
    expect(lines.join("\n")).toContain(`New signing key ${active.id}`);
    expect((await db.signingKey.findUniqueOrThrow({ where: { id: before } })).status).toBe("retiring");
    expect((await getActiveSigningKey()).kid).toBe(active.id);
  });

  it("refuses while OAUTH_SIGNING_KEY is set, saying how to rotate instead, and changes nothing", async () => {
    vi.stubEnv("OAUTH_SIGNING_KEY", "-----BEGIN PRIVATE KEY-----\nconfigured\n-----END PRIVATE KEY-----");
    resetEnvForTests();
    const keys = await db.signingKey.findMany({ orderBy: { id: "asc" } });
    const lines: string[] = [];
    expect(await rotateSigningKeyCommand((line) => lines.push(line))).toBe(2);
    expect(lines.join("\n")).toContain("set the new key there and restart");
    expect(await db.signingKey.findMany({ orderBy: { id: "asc" } })).toEqual(keys);
  });
});
