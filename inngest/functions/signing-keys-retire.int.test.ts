import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { signingKeysRetire } from "@/inngest/functions/signing-keys-retire";
import { db } from "@/lib/db";
import { listPublicKeys, rotateSigningKey } from "@/lib/oauth/signing-keys";

describe("signing-keys-retire", () => {
  it("runs hourly and unpublishes keys rotated out more than a token lifetime ago, keeping the active key and recent ones", async () => {
    const config = signingKeysRetire["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]).toMatchObject({ triggers: [{ cron: "41 * * * *" }] });

    const old = await rotateSigningKey();
    const recent = await rotateSigningKey();
    const active = await rotateSigningKey();
    // `old` left the active role two hours ago: its tokens (one hour) have all expired.
    await db.signingKey.update({ where: { id: old }, data: { retiredAt: new Date(Date.now() - 2 * 3600_000) } });

    const { result } = await new InngestTestEngine({ function: signingKeysRetire }).execute();
    expect((result as { retired: number }).retired).toBeGreaterThanOrEqual(1);
    const status = Object.fromEntries((await db.signingKey.findMany({ where: { id: { in: [old, recent, active] } } })).map((k) => [k.id, k.status]));
    expect(status).toEqual({ [old]: "retired", [recent]: "retiring", [active]: "active" });
    const published = (await listPublicKeys({ fresh: true })).map((k) => k.kid);
    expect(published).toEqual(expect.arrayContaining([recent, active]));
    expect(published).not.toContain(old);
  });
});
