import { randomUUID } from "node:crypto";
import { describe, expect, expectTypeOf, it } from "vitest";
import { events, inngest } from "@/inngest/client";

describe("typed Inngest events", () => {
  it("type a function's event from its trigger", () => {
    const fn = inngest.createFunction({ id: "type-check", triggers: [events["file.uploaded"]] }, async ({ event }) => {
      expectTypeOf(event.data.file_id).toEqualTypeOf<string>();
      expectTypeOf(event.data.portal_id).toEqualTypeOf<string | null>();
      expectTypeOf(event.data.task_id).toEqualTypeOf<string | null>();
      return event.data.event_id;
    });
    expect(fn.id()).toBe("type-check");
  });

  it("validate at runtime what is created through them", async () => {
    const base = { event_id: randomUUID(), org_id: randomUUID(), portal_id: randomUUID() };
    await expect(
      events["guest.invited"].create({ ...base, guest_email: "g@example.com", guest_name: null, invited_by: null }).validate(),
    ).resolves.toBeUndefined();
    const bad = { ...base, guest_email: "not-an-email", guest_name: null, invited_by: null };
    await expect(events["guest.invited"].create(bad).validate()).rejects.toThrow();
  });
});
