import type { Tx } from "@/lib/db";
import { eventDataSchemas, type EventData, type EventType } from "@/lib/events/types";

export type RecordEventInput<T extends EventType> = {
  orgId: string;
  portalId?: string | null;
  type: T;
  data: EventData<T>;
};

/**
 * Writes an event to the outbox in the caller's transaction (D22): it commits with the change
 * that caused it or not at all, and the relay hands it to Inngest after the commit.
 * Invalid data throws, which rolls back the caller's change: a malformed event is a bug, and an
 * unsendable row would sit in the outbox forever.
 */
export async function recordEvent<T extends EventType>(tx: Tx, input: RecordEventInput<T>): Promise<{ id: string }> {
  const data = eventDataSchemas[input.type].parse(input.data);
  return tx.event.create({
    data: { orgId: input.orgId, portalId: input.portalId ?? null, type: input.type, data },
    select: { id: true },
  });
}
