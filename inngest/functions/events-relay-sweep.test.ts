import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { eventsRelaySweep } from "@/inngest/functions/events-relay-sweep";

// The sweep's orchestration with its steps mocked: the dispatch itself is covered by
// lib/events/dispatch-pending-events.int.test.ts, and running it unscoped here would take other
// tests' events from a shared database.

const batch = (sent: number, failed = 0) => ({ sent, failed });

describe("events-relay-sweep", () => {
  it("runs every minute, one at a time", () => {
    const config = eventsRelaySweep["getConfig"]({ baseUrl: new URL("https://app.test/api/inngest"), appPrefix: "client-portals" });
    expect(config[0]).toMatchObject({
      id: "client-portals-events-relay-sweep",
      triggers: [{ cron: "* * * * *" }],
      singleton: { mode: "skip" },
    });
  });

  it("drains full batches until one comes back short", async () => {
    const t = new InngestTestEngine({
      function: eventsRelaySweep,
      steps: [
        { id: "dispatch-0", handler: () => batch(100) },
        { id: "dispatch-1", handler: () => batch(100) },
        { id: "dispatch-2", handler: () => batch(7) },
        {
          id: "dispatch-3",
          handler: () => {
            throw new Error("must not run");
          },
        },
      ],
    });
    const { result } = await t.execute();
    expect(result).toEqual({ sent: 207, failed: 0 });
  });

  it("stops at the first batch Inngest did not accept", async () => {
    const t = new InngestTestEngine({
      function: eventsRelaySweep,
      steps: [
        { id: "dispatch-0", handler: () => batch(0, 100) },
        {
          id: "dispatch-1",
          handler: () => {
            throw new Error("must not run");
          },
        },
      ],
    });
    const { result } = await t.execute();
    expect(result).toEqual({ sent: 0, failed: 100 });
  });
});
