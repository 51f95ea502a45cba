import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createTestUser } from "@/lib/test-support/fixtures";
import { checkSessionToken, endOtherSessions, endSessionOfToken, endUserSession, LAST_SEEN_INTERVAL_MS, listActiveSessions } from "./user-sessions";

// The server-side half of web sessions: the row a session JWT names, checked on every request.

const browser =
  (ip: string, userAgent = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0") =>
  async () => ({ userAgent, ip });

async function signIn(userId: string, ip = "192.0.2.1") {
  const token = await checkSessionToken({ sub: undefined as string | undefined }, userId, browser(ip));
  return token as { sub: string; sid: string };
}

describe("user sessions", () => {
  it("records the browser at sign-in and accepts its token until it signs out; the other browser stays signed in", async () => {
    const user = await createTestUser();
    const laptop = await signIn(user.id, "192.0.2.1");
    const phone = await signIn(user.id, "198.51.100.7");
    const row = await db.userSession.findUniqueOrThrow({ where: { id: laptop.sid } });
    expect([row.userId, row.ip, row.userAgent, row.revokedAt]).toEqual([user.id, "192.0.2.1", "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0.0.0", null]);
    expect(await checkSessionToken({ ...laptop })).toEqual(laptop);

    await endSessionOfToken(laptop);
    expect(await checkSessionToken({ ...laptop }), "a signed-out token replayed").toBeNull();
    expect(await checkSessionToken({ ...phone })).toEqual(phone);
    expect((await db.userSession.findUniqueOrThrow({ where: { id: laptop.sid } })).revokedAt).not.toBeNull();
  });

  it("refuses a token without a session, with another user's session, or with a malformed one", async () => {
    const user = await createTestUser();
    const other = await createTestUser();
    const theirs = await signIn(other.id);
    expect(await checkSessionToken({ sub: user.id })).toBeNull();
    expect(await checkSessionToken({ sub: user.id, sid: theirs.sid })).toBeNull();
    expect(await checkSessionToken({ sub: user.id, sid: "not-a-uuid" })).toBeNull();
    expect(await checkSessionToken({})).toEqual({});
    // A deleted user's sessions go with the user.
    await db.user.delete({ where: { id: other.id } });
    expect(await checkSessionToken({ ...theirs })).toBeNull();
  });

  it("updates last seen (and the address) at most every few minutes", async () => {
    const user = await createTestUser();
    const token = await signIn(user.id, "192.0.2.1");
    const stale = new Date(Date.now() - LAST_SEEN_INTERVAL_MS - 1000);
    await db.userSession.update({ where: { id: token.sid }, data: { lastSeenAt: stale } });
    await checkSessionToken({ ...token }, undefined, browser("203.0.113.9"));
    const seen = await db.userSession.findUniqueOrThrow({ where: { id: token.sid } });
    expect(seen.lastSeenAt.getTime()).toBeGreaterThan(stale.getTime());
    expect(seen.ip).toBe("203.0.113.9");
    await checkSessionToken({ ...token }, undefined, browser("203.0.113.10"));
    const again = await db.userSession.findUniqueOrThrow({ where: { id: token.sid } });
    expect([again.lastSeenAt, again.ip]).toEqual([seen.lastSeenAt, "203.0.113.9"]);
  });

  it("lists the active sessions, ends one of the user's own (another user's is not found) and all others", async () => {
    const user = await createTestUser();
    const stranger = await createTestUser();
    const here = await signIn(user.id, "192.0.2.1");
    const a = await signIn(user.id, "192.0.2.2");
    const b = await signIn(user.id, "192.0.2.3");
    const theirs = await signIn(stranger.id);

    const listed = await listActiveSessions({ userId: user.id, currentSessionId: here.sid });
    expect(listed.map((s) => [s.ip, s.current]).sort()).toEqual([
      ["192.0.2.1", true],
      ["192.0.2.2", false],
      ["192.0.2.3", false],
    ]);

    await expect(endUserSession({ userId: user.id, sessionId: theirs.sid })).rejects.toMatchObject({ code: "not_found" });
    expect(await checkSessionToken({ ...theirs })).toEqual(theirs);
    await endUserSession({ userId: user.id, sessionId: a.sid });
    expect(await checkSessionToken({ ...a })).toBeNull();
    await expect(endUserSession({ userId: user.id, sessionId: a.sid }), "already ended").rejects.toMatchObject({ code: "not_found" });

    expect(await endOtherSessions({ userId: user.id, currentSessionId: here.sid })).toBe(1);
    expect(await checkSessionToken({ ...b })).toBeNull();
    expect(await checkSessionToken({ ...here })).toEqual(here);
    expect((await listActiveSessions({ userId: user.id, currentSessionId: here.sid })).map((s) => s.id)).toEqual([here.sid]);
  });
});
