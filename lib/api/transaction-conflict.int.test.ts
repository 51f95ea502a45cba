import { describe, expect, it, vi } from "vitest";
import { mapError } from "@/lib/api/error-response";
import { afterCommit, contentionStats, db, query, runInTransaction, TRANSACTION_ATTEMPTS } from "@/lib/db";
import { createTestOrg, createTestPortal } from "@/lib/test-support/fixtures";

// Contention handled where transactions are made (lib/db.ts): a transaction PostgreSQL rolls back
// as a deadlock victim or a serialization failure is run again as a whole; after the last attempt
// the error reaches the API's mapper as 503 with Retry-After.

/** Resolves when `n` parties have arrived. */
function barrier(n: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === n) open();
    return opened;
  };
}

/** A real PostgreSQL error with the given SQLSTATE, raised inside the current transaction. */
const raise = (sqlstate: string) => db.$executeRawUnsafe(`DO $$ BEGIN RAISE EXCEPTION 'injected' USING ERRCODE = '${sqlstate}'; END $$`);

describe("transactions under contention", () => {
  it("a real deadlock: both transactions commit, the victim ran again as a whole, its after-commit hook ran once", async () => {
    const org = await createTestOrg();
    const [a, b] = [await createTestPortal({ orgId: org.id, name: "A" }), await createTestPortal({ orgId: org.id, name: "B" })];
    const bothHoldOne = barrier(2);
    const runs = { first: 0, second: 0 };
    const hooks = { first: 0, second: 0 };
    const before = contentionStats.retries;
    // Opposite lock orders: each locks one row, waits until the other did, then wants the other's.
    const crossing = (which: "first" | "second", own: string, other: string) =>
      runInTransaction(async (tx) => {
        runs[which]++;
        await tx.portal.update({ where: { id: own }, data: { name: `${which} ${runs[which]}` } });
        if (runs[which] === 1) await bothHoldOne();
        await tx.portal.update({ where: { id: other }, data: { tags: [which] } });
        afterCommit(() => hooks[which]++);
        return which;
      });
    const results = await Promise.all([crossing("first", a.id, b.id), crossing("second", b.id, a.id)]);
    expect(results).toEqual(["first", "second"]);
    // PostgreSQL chose one victim; it ran twice, the other once.
    expect([runs.first + runs.second, Math.max(runs.first, runs.second)]).toEqual([3, 2]);
    expect(hooks).toEqual({ first: 1, second: 1 });
    expect(contentionStats.retries - before).toBe(1);
    // The victim's first attempt left nothing: its name is that of its second run.
    const victim = runs.first === 2 ? "first" : "second";
    const victimPortal = await db.portal.findUniqueOrThrow({ where: { id: victim === "first" ? a.id : b.id } });
    expect(victimPortal.name).toBe(`${victim} 2`);
  });

  it.each(["40001", "40P01"])(
    "SQLSTATE %s on every attempt: every attempt made, nothing committed, then an error the API answers 503 with Retry-After",
    async (sqlstate) => {
      vi.spyOn(console, "error").mockImplementation(() => undefined);
      const org = await createTestOrg();
      const portal = await createTestPortal({ orgId: org.id, name: "Unchanged" });
      let attempts = 0;
      let hooks = 0;
      const failure = await runInTransaction(async (tx) => {
        attempts++;
        await tx.portal.update({ where: { id: portal.id }, data: { name: `Changed ${attempts}` } });
        afterCommit(() => hooks++);
        await raise(sqlstate);
      }).catch((error: unknown) => error);
      expect([attempts, hooks]).toEqual([TRANSACTION_ATTEMPTS, 0]);
      expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).name).toBe("Unchanged");
      const mapped = mapError(failure);
      expect([mapped.status, mapped.body.error, mapped.headers["Retry-After"], mapped.unexpected]).toEqual([503, "service_unavailable", "1", false]);
    },
  );

  it("a conflict that clears: db.$transaction and a one-statement query() are retried too", async () => {
    const org = await createTestOrg();
    const portal = await createTestPortal({ orgId: org.id, name: "Before" });
    let attempts = 0;
    await db.$transaction(async (tx) => {
      attempts++;
      await tx.portal.update({ where: { id: portal.id }, data: { name: `After ${attempts}` } });
      if (attempts < 3) await raise("40P01");
    });
    expect(attempts).toBe(3);
    expect((await db.portal.findUniqueOrThrow({ where: { id: portal.id } })).name).toBe("After 3");

    // A statement that conflicts on its first run only (a sequence, which no rollback resets, counts the runs).
    const name = `conflict_once_${org.id.replaceAll("-", "")}`;
    await db.$executeRawUnsafe(`CREATE SEQUENCE ${name}`);
    await db.$executeRawUnsafe(
      `CREATE FUNCTION ${name}() RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN IF nextval('${name}') = 1 THEN RAISE EXCEPTION 'injected' USING ERRCODE = '40001'; END IF; RETURN currval('${name}'); END $$`,
    );
    try {
      expect(await query<{ n: number }>(`SELECT ${name}()::int AS n`)).toEqual([{ n: 2 }]);
      // Anything else is not retried: it fails as it is, on its first run.
      await expect(query(`SELECT ${name}() / 0 AS n`)).rejects.toThrow(/division by zero/);
      expect(await query<{ n: number }>(`SELECT ${name}()::int AS n`)).toEqual([{ n: 4 }]);
    } finally {
      await db.$executeRawUnsafe(`DROP FUNCTION ${name}()`);
      await db.$executeRawUnsafe(`DROP SEQUENCE ${name}`);
    }
  });
});
