import { afterCommit, runInTransaction, type TransactionOptions, type Tx } from "@/lib/db";
import { kickEventRelay } from "./event-relay";

/**
 * Runs a change (its rows, audit rows and outbox events, D22) in one transaction and kicks the
 * event relay after the commit, so that its events leave without waiting for the relay's next
 * tick. Inside an open ambient transaction (an API request with an Idempotency-Key, lib/db.ts) it
 * is a savepoint of that transaction and the kick waits for the outer commit: events are not
 * visible to the relay before it. The one way domain code commits a change that records events.
 */
export function withChange<T>(change: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T> {
  return runInTransaction(async (tx) => {
    const result = await change(tx);
    afterCommit(kickEventRelay);
    return result;
  }, options);
}
