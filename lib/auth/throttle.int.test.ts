import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword } from "@/lib/auth/password";
import { sha256Hex } from "@/lib/crypto";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { createTestUser } from "@/lib/test-support/fixtures";
import { requestPasswordReset } from "./password-reset";
import { admitEmailRequest, POLICIES } from "./throttle";
import { attemptPasswordSignIn } from "./verify-credentials";

// Sign-in throttling against the real database, the clock given to each attempt: the attacks of
// the security review (hundreds of wrong passwords at one account, or spread over many accounts
// from one address), as the thresholds in docs/security.md say they end.

const PASSWORD = "the-right-password";
const lockMs = () => env().AUTH_LOCK_MINUTES * 60_000;
/** A fresh address per test run, so that runs sharing a database do not share counters. */
const freshIp = () => `198.18.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}-${randomUUID().slice(0, 8)}`;
const lockEmails = (to: string) => db.outboundEmail.findMany({ where: { to, template: "account-locked" } });

describe("password sign-in throttling", () => {
  it("200 wrong passwords at one account from one address: 10 are checked, with growing delays, then the account locks and its owner is emailed; the right password works only after the lock", async () => {
    const user = await createTestUser({ passwordHash: await hashPassword(PASSWORD) });
    const ip = freshIp();
    const start = Date.now();
    const checkedAt: number[] = [];
    let throttled = 0;
    // An attacker firing every 250 ms for 50 seconds.
    for (let i = 0; i < 200; i++) {
      const at = i * 250;
      const attempt = await attemptPasswordSignIn({ email: user.email, password: `guess-${i}` }, { ip, now: new Date(start + at) });
      if (attempt.outcome === "wrong") checkedAt.push(at / 1000);
      else if (attempt.outcome === "throttled") throttled++;
      else throw new Error(`attempt ${i} signed in`);
    }
    // Four free failures, then waits of 1, 2, 4, 8 and 16 s; the tenth failure locks.
    expect(checkedAt).toEqual([0, 0.25, 0.5, 0.75, 1, 2, 4, 8, 16, 32]);
    expect(throttled).toBe(190);

    const emails = await lockEmails(user.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.text).toContain(`10 times in a short while, wrong passwords were entered for your Client Portals account from the address ${ip}`);
    expect(emails[0]!.text).toContain(`locked for ${env().AUTH_LOCK_MINUTES} minutes`);

    // Locked at 32 s: the right password is refused unheard, from any address, until the lock ends.
    const lockedAt = start + 32_000;
    for (const [from, at] of [
      [ip, lockedAt + 60_000],
      [freshIp(), lockedAt + lockMs() - 1000],
    ] as const) {
      expect(await attemptPasswordSignIn({ email: user.email, password: PASSWORD }, { ip: from, now: new Date(at) })).toMatchObject({ outcome: "throttled" });
    }
    const after = await attemptPasswordSignIn({ email: user.email, password: PASSWORD }, { ip, now: new Date(lockedAt + lockMs() + 1000) });
    expect(after).toMatchObject({ outcome: "ok", user: { id: user.id } });
    // A success forgives the account's failures.
    expect(await attemptPasswordSignIn({ email: user.email, password: "wrong" }, { ip, now: new Date(lockedAt + lockMs() + 2000) })).toEqual({
      outcome: "wrong",
    });
    expect(await lockEmails(user.email)).toHaveLength(1);
  });

  it("an unknown address is answered exactly as a known one, and nobody is emailed", async () => {
    const known = await createTestUser({ passwordHash: await hashPassword(PASSWORD) });
    const unknown = `nobody-${randomUUID()}@test.example`;
    const start = Date.now();
    const run = async (email: string) => {
      const ip = freshIp();
      const outcomes: string[] = [];
      for (let i = 0; i < 40; i++)
        outcomes.push((await attemptPasswordSignIn({ email, password: `guess-${i}` }, { ip, now: new Date(start + i * 1000) })).outcome);
      return outcomes;
    };
    const [forKnown, forUnknown] = [await run(known.email), await run(unknown)];
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown.filter((o) => o === "wrong")).toHaveLength(POLICIES.password.account.lockAt);
    expect(await db.outboundEmail.count({ where: { to: unknown } })).toBe(0);
  });

  it("200 wrong passwords spread over 50 accounts from one address: the address is slowed, then locked after 100; the accounts are not", async () => {
    const known = await Promise.all(
      Array.from({ length: 25 }, () => createTestUser({ passwordHash: "$2b$04$invalidinvalidinvalidinvalidinvalidinvalidinvalidinva" })),
    );
    const emails = [...known.map((u) => u.email), ...Array.from({ length: 25 }, () => `nobody-${randomUUID()}@test.example`)];
    const ip = freshIp();
    const start = Date.now();
    const checkedAt: number[] = [];
    // One attempt every 2 seconds, round-robin over the accounts (4 each).
    for (let i = 0; i < 200; i++) {
      const at = i * 2;
      const attempt = await attemptPasswordSignIn({ email: emails[i % 50], password: `guess-${i}` }, { ip, now: new Date(start + at * 1000) });
      if (attempt.outcome === "wrong") checkedAt.push(at);
      else expect(attempt.outcome).toBe("throttled");
    }
    // 20 free failures, waits of 1, 2 and then 4 s; the 100th failure (at 352 s) locks the address.
    expect(checkedAt).toHaveLength(POLICIES.password.ip.lockAt);
    expect(checkedAt.slice(0, 24)).toEqual([...Array.from({ length: 20 }, (_, i) => i * 2), 40, 42, 44, 48]);
    expect(checkedAt.at(-1)).toBe(352);
    const row = await db.authThrottle.findUniqueOrThrow({ where: { key: `password:ip:${ip}` } });
    expect(row.lockedUntil?.getTime()).toBe(start + 352_000 + lockMs());
    // No account was slowed (4 failures each), so nobody is emailed.
    for (const user of known) expect(await lockEmails(user.email)).toHaveLength(0);

    // One of those accounts with its right password: refused from the locked address, fine elsewhere and after the lock.
    const owner = await createTestUser({ passwordHash: await hashPassword(PASSWORD) });
    const now = start + 360_000;
    expect(await attemptPasswordSignIn({ email: owner.email, password: PASSWORD }, { ip, now: new Date(now) })).toMatchObject({ outcome: "throttled" });
    expect(await attemptPasswordSignIn({ email: owner.email, password: PASSWORD }, { ip: freshIp(), now: new Date(now) })).toMatchObject({ outcome: "ok" });
    expect(await attemptPasswordSignIn({ email: owner.email, password: PASSWORD }, { ip, now: new Date(start + 352_000 + lockMs() + 1000) })).toMatchObject({
      outcome: "ok",
    });
  });

  it("counts concurrent failures exactly (every instance shares the counters)", async () => {
    const user = await createTestUser({ passwordHash: await hashPassword(PASSWORD) });
    const now = new Date();
    await Promise.all(Array.from({ length: 4 }, (_, i) => attemptPasswordSignIn({ email: user.email, password: `guess-${i}` }, { ip: freshIp(), now })));
    const row = await db.authThrottle.findUniqueOrThrow({ where: { key: `password:account:${sha256Hex(user.email)}` } });
    expect(row.count).toBe(4);
  });
});

describe("magic-link and password-reset request throttling", () => {
  it("admits 3 requests, then one after each growing wait, locks at the 6th and emails the owner; unknown addresses alike", async () => {
    const user = await createTestUser();
    const unknown = `nobody-${randomUUID()}@test.example`;
    const start = Date.now();
    const admitted = async (email: string) => {
      const ip = freshIp();
      const at: number[] = [];
      for (let t = 0; t < 120; t++) if (await admitEmailRequest({ kind: "magic-link", email, ip }, new Date(start + t * 1000))) at.push(t);
      return at;
    };
    const known = await admitted(user.email);
    expect(known).toEqual([0, 1, 2, 3, 18, 48]);
    expect(await admitted(unknown)).toEqual(known);
    const [mail] = await lockEmails(user.email);
    expect(mail?.text).toContain("6 times in a short while, sign-in links were asked for");
    expect(await db.outboundEmail.count({ where: { to: unknown } })).toBe(0);
  });

  it("200 password-reset requests for one account in 20 s send 5 links; the next one locks resets and tells the owner", async () => {
    const user = await createTestUser();
    const ip = freshIp();
    const start = Date.now();
    for (let i = 0; i < 200; i++) await requestPasswordReset({ email: user.email, ip, now: new Date(start + i * 100) });
    // At 0, 0.1, 0.2 and 0.3 s, then after the 15 s wait (15.3 s); the next wait (30 s) outlasts the run.
    expect(await db.outboundEmail.count({ where: { to: user.email, template: "password-reset" } })).toBe(5);
    expect(await lockEmails(user.email)).toHaveLength(0);
    await requestPasswordReset({ email: user.email, ip, now: new Date(start + 60_000) });
    const [mail] = await lockEmails(user.email);
    expect(mail?.text).toContain("6 times in a short while, password resets were asked for");
    const key = `password-reset:account:${sha256Hex(user.email)}`;
    const locked = await db.authThrottle.findUniqueOrThrow({ where: { key } });
    expect(locked.lockedUntil?.getTime()).toBe(start + 60_000 + lockMs());
    // While locked, requests are not even counted; after it, they are admitted afresh.
    await requestPasswordReset({ email: user.email, ip, now: new Date(start + 61_000) });
    expect((await db.authThrottle.findUniqueOrThrow({ where: { key } })).count).toBe(6);
    expect(await admitEmailRequest({ kind: "password-reset", email: user.email, ip }, new Date(start + 60_000 + lockMs() + 1000))).toBe(true);
    expect((await db.authThrottle.findUniqueOrThrow({ where: { key } })).count).toBe(1);
  });
});
