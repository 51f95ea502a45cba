import { db, type Tx } from "@/lib/db";
import { notFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

// Web sessions are Auth.js JWTs that carry the id (`sid`) of a UserSession row. The row is what
// makes a session end on the server: signing out, ending it from the sessions page, or a password
// reset sets revokedAt, and the JWT check below (one primary-key read per request) refuses it
// from then on, whatever copy of the cookie is replayed.

/** lastSeenAt (and the address) are written at most this often per session. */
export const LAST_SEEN_INTERVAL_MS = 5 * 60 * 1000;
/** The session JWT's lifetime: a session not seen for this long is no longer listed as active. */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export interface SessionClient {
  userAgent: string;
  ip: string;
}

/** A new session for a user who just signed in; its id goes into the JWT. */
async function startUserSession(userId: string, client: SessionClient): Promise<string> {
  const row = await db.userSession.create({ data: { userId, userAgent: client.userAgent.slice(0, 500), ip: client.ip }, select: { id: true } });
  return row.id;
}

type SessionToken = { sub?: string; sid?: unknown };

/**
 * The Auth.js `jwt` check. At sign-in (`signedInUserId`) a session row is made and its id put in
 * the token. Afterwards the token stands only while its row exists, belongs to the token's user
 * and is not revoked: otherwise null (Auth.js clears the cookie and the request is signed out).
 * A token without a user is left to Auth.js.
 */
export async function checkSessionToken<T extends SessionToken>(
  token: T,
  signedInUserId?: string,
  client: () => Promise<SessionClient> = async () => ({ userAgent: "", ip: "" }),
): Promise<T | null> {
  if (signedInUserId) return { ...token, sub: signedInUserId, sid: await startUserSession(signedInUserId, await client()) };
  if (!token.sub) return token;
  if (typeof token.sid !== "string" || !isUuid(token.sid)) return null;
  const session = await db.userSession.findUnique({ where: { id: token.sid }, select: { userId: true, revokedAt: true, lastSeenAt: true } });
  if (!session || session.userId !== token.sub || session.revokedAt) return null;
  const now = Date.now();
  if (now - session.lastSeenAt.getTime() >= LAST_SEEN_INTERVAL_MS) {
    const { ip } = await client();
    await db.userSession.updateMany({ where: { id: token.sid, revokedAt: null }, data: { lastSeenAt: new Date(now), ...(ip ? { ip } : {}) } });
  }
  return token;
}

/** Sign-out: the session of the token signing out ends. */
export async function endSessionOfToken(token: SessionToken | null | undefined): Promise<void> {
  if (!token?.sub || typeof token.sid !== "string" || !isUuid(token.sid)) return;
  await db.userSession.updateMany({ where: { id: token.sid, userId: token.sub, revokedAt: null }, data: { revokedAt: new Date() } });
}

export interface ActiveSession {
  id: string;
  userAgent: string;
  ip: string;
  createdAt: Date;
  lastSeenAt: Date;
  current: boolean;
}

/** The user's sessions that can still be used, most recently seen first. */
export async function listActiveSessions({ userId, currentSessionId }: { userId: string; currentSessionId: string | null }): Promise<ActiveSession[]> {
  const rows = await db.userSession.findMany({
    where: { userId, revokedAt: null, lastSeenAt: { gt: new Date(Date.now() - SESSION_MAX_AGE_SECONDS * 1000) } },
    orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }],
    select: { id: true, userAgent: true, ip: true, createdAt: true, lastSeenAt: true },
  });
  return rows.map((r) => ({ ...r, current: r.id === currentSessionId }));
}

/** Ends one of the user's own sessions; another user's session id is not found. */
export async function endUserSession({ userId, sessionId }: { userId: string; sessionId: string }): Promise<void> {
  const ended = isUuid(sessionId)
    ? await db.userSession.updateMany({ where: { id: sessionId, userId, revokedAt: null }, data: { revokedAt: new Date() } })
    : null;
  if (!ended || ended.count === 0) throw notFound("Session");
}

/** Ends every session of the user but the current one; the number ended. */
export async function endOtherSessions({ userId, currentSessionId }: { userId: string; currentSessionId: string }): Promise<number> {
  const ended = await db.userSession.updateMany({ where: { userId, revokedAt: null, id: { not: currentSessionId } }, data: { revokedAt: new Date() } });
  return ended.count;
}

/** Every session of the user ends (a password reset), in the caller's transaction. */
export async function endAllSessions(tx: Tx, userId: string): Promise<void> {
  await tx.userSession.updateMany({ where: { userId, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** Deletes sessions revoked, or unused past the JWT's lifetime, more than a day ago (a daily job). */
export async function purgeEndedSessions(now = new Date()): Promise<number> {
  const dayAgo = new Date(now.getTime() - 86_400_000);
  const { count } = await db.userSession.deleteMany({
    where: { OR: [{ revokedAt: { lt: dayAgo } }, { lastSeenAt: { lt: new Date(dayAgo.getTime() - SESSION_MAX_AGE_SECONDS * 1000) } }] },
  });
  return count;
}
