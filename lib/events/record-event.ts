import { randomUUID } from "node:crypto";
import type { Tx } from "@/lib/db";
import { jsonRecordset } from "@/lib/sql";
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

/** An outbox row as a combined statement writes it (see `OUTBOX_RECORDSET`). */
export interface OutboxRow {
  id: string;
  orgId: string;
  portalId: string | null;
  type: EventType;
  data: unknown;
}

/**
 * The outbox row of an event for a change written as one statement (the hot write
 * paths: createPortal, createTask) instead of recordEvent's insert in an interactive transaction.
 * Validated as recordEvent validates, before anything is written, so a malformed event still
 * writes nothing. The id is made here, as Prisma makes it for recordEvent.
 */
export function outboxRow<T extends EventType>(input: RecordEventInput<T>): OutboxRow {
  return { id: randomUUID(), orgId: input.orgId, portalId: input.portalId ?? null, type: input.type, data: eventDataSchemas[input.type].parse(input.data) };
}

/** The columns an outbox row is inserted with from `outboxRecordset`: OUTBOX_VALUES, then its times. */
export const OUTBOX_COLUMNS = ["id", "orgId", "portalId", "type", "data", "occurredAt", "createdAt"] as const;
export const OUTBOX_VALUES = ["e.id", "e.orgId", "e.portalId", "e.type", "e.data"] as const;

/** The JSON text `outboxRecordset` reads OutboxRows from, each with its place `n`. */
export const outboxJson = (rows: OutboxRow[]): string => JSON.stringify(rows.map((row, n) => ({ ...row, n })));

/**
 * OutboxRows as a table `e` of a statement (lib/sql.ts jsonRecordset); `n` is each row's place
 * (0, 1, ...), which the statement turns into createdAt order, so that the relay hands them over
 * in the order they were recorded. Given as rows, or as their JSON text (`outboxJson`: a statement
 * compiled once, lib/sql.ts fixedStatement, takes the text as its value).
 */
export const outboxRecordset = (rows: OutboxRow[] | string) =>
  jsonRecordset(typeof rows === "string" ? rows : outboxJson(rows), "e", {
    id: "uuid",
    orgId: "uuid",
    portalId: "uuid",
    type: "text",
    data: "jsonb",
    n: "int",
  });
