import { InngestTestEngine } from "@inngest/test";
import { describe, expect, it } from "vitest";
import { getUserViewer } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { postMessage } from "@/lib/messages/post-message";
import { setNotificationPreferences } from "@/lib/notifications/preferences";
import { createTestGuest, createTestUser } from "@/lib/test-support/fixtures";
import { createMemberContext } from "@/lib/test-support/outcome";
import { notifyMessagePosted } from "./notify-message-posted";
import { relayedEvent } from "./test-support/webhook-fixtures";

// A portal's messages by email: the other side of the thread hears about a new message under their
// "messages" choice, several within the batch window as one email; the author never does.

async function setup() {
  const ctx = await createMemberContext({ name: "Mia Member" });
  const admin = await createTestUser({ orgId: ctx.org.id, role: "admin", name: "Ada Admin" });
  const guestUser = await createTestGuest({ orgId: ctx.org.id, portalId: ctx.portal.id, name: "Gina Guest" });
  return { ...ctx, guestUser, guest: await getUserViewer(guestUser.id, ctx.org.id), adminViewer: await getUserViewer(admin.id, ctx.org.id) };
}

describe("message emails", () => {
  it("emails the other side under their messages choice, batched; never the author", async () => {
    const s = await setup();
    await setNotificationPreferences(s.adminViewer.userId, {
      uploads: "immediately",
      taskCompletions: "immediately",
      reminders: "immediately",
      invitations: "immediately",
      requests: "immediately",
      messages: "off",
    });
    const first = await postMessage({ viewer: s.guest, portalId: s.portal.id, body: "Question one" });
    const second = await postMessage({ viewer: s.guest, portalId: s.portal.id, body: "Question two" });
    const run = async (id: string, during: () => unknown = () => undefined): Promise<unknown> => {
      const row = (await db.event.findMany({ where: { orgId: s.org.id, type: "message.posted" } })).find(
        (e) => (e.data as { message_id: string }).message_id === id,
      )!;
      return new InngestTestEngine({
        function: notifyMessagePosted,
        events: [relayedEvent(row) as never],
        steps: [{ id: "batch-window", handler: async () => void (await during()) }],
      }).execute();
    };
    // The second message arrives during the first's batch window: one email with both.
    await run(first.id, () => run(second.id));
    const toMember = await db.outboundEmail.findMany({ where: { orgId: s.org.id, to: s.member.email } });
    expect(toMember).toHaveLength(1);
    expect(toMember[0]!.subject).toBe(`2 new messages in ${s.org.name}`);
    expect(toMember[0]!.text).toContain("Question one");
    expect(toMember[0]!.text).toContain("Question two");
    expect(await db.outboundEmail.count({ where: { orgId: s.org.id, to: { in: [s.guestUser.email] } } })).toBe(0);
    expect(await db.digestItem.count({ where: { userId: s.adminViewer.userId } })).toBe(0);

    const reply = await postMessage({ viewer: s.viewer, portalId: s.portal.id, body: "Answer" });
    await run(reply.id);
    const toGuest = await db.outboundEmail.findMany({ where: { orgId: s.org.id, to: s.guestUser.email } });
    expect(toGuest).toHaveLength(1);
    expect(toGuest[0]!.subject).toBe(`New message from Mia Member (${s.org.name}) in ${s.portal.name}`);
    expect(toGuest[0]!.text).toContain(`/org/${s.org.id}/client/${s.portal.id}#messages`);
  });
});
