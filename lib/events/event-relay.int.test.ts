import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { resetEnvForTests } from "@/lib/env";
// Loading the Inngest client registers it as the outbox's sender (lib/events/sender.ts).
import "@/inngest/client";
import { dispatchPendingEvents } from "@/lib/events/dispatch-pending-events";
import { kickEventRelay, startEventRelay } from "@/lib/events/event-relay";
import { recordEvent } from "@/lib/events/record-event";
import { startInngestReceiver, type InngestReceiver } from "@/lib/events/test-support/inngest-receiver";

// The in-process relay end to end: commit, kick, ride out an outage of the event API, deliver once.

let receiver: InngestReceiver;
const savedEnv = { ...process.env };

beforeAll(async () => {
  receiver = await startInngestReceiver();
  // Dev mode this time (no event key), pointed at the receiver instead of the Dev Server.
  process.env.INNGEST_BASE_URL = receiver.url;
  process.env.INNGEST_DEV = "1";
  delete process.env.INNGEST_EVENT_KEY;
  resetEnvForTests();
});

afterAll(async () => {
  await receiver.close();
  process.env = savedEnv;
  resetEnvForTests();
});

it("delivers an event recorded during an outage once the event API is back", async () => {
  const org = await db.organization.create({ data: { name: `relay-test-${randomUUID()}` } });
  await receiver.pause();
  const relay = startEventRelay({
    intervalMs: 50,
    maxBackoffMs: 200,
    dispatch: (o) => dispatchPendingEvents({ ...o, orgId: org.id }),
  });
  try {
    const { id } = await db.$transaction((tx) =>
      recordEvent(tx, {
        orgId: org.id,
        type: "guest.invited",
        data: { guest_email: "guest@example.com", guest_name: "Guest", invited_by: null },
      }),
    );
    kickEventRelay();

    await vi.waitFor(
      async () => {
        const row = await db.event.findUniqueOrThrow({ where: { id } });
        expect(row.dispatchAttempts).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect((await db.event.findUniqueOrThrow({ where: { id } })).dispatchedAt).toBeNull();

    await receiver.listen();
    await vi.waitFor(
      async () => {
        const row = await db.event.findUniqueOrThrow({ where: { id } });
        expect(row.dispatchedAt).not.toBeNull();
      },
      { timeout: 15_000, interval: 100 },
    );

    // Give the relay a few more runs: nothing is sent again.
    await new Promise((r) => setTimeout(r, 300));
    const received = receiver.events.filter((e) => e.data.org_id === org.id);
    expect(received.map((e) => [e.id, e.name])).toEqual([[id, "guest.invited"]]);
    expect(receiver.keys).toContain("NO_EVENT_KEY_SET");
  } finally {
    await relay.stop();
  }
}, 40_000);
