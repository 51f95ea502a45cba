import { InngestTestEngine } from "@inngest/test";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { sendEmail } from "@/lib/email/send-email";
import { startSmtpSink, type SmtpSink } from "@/lib/email/test-support/smtp-sink";
import { resetEnvForTests } from "@/lib/env";
import { createTestOrg } from "@/lib/test-support/fixtures";
import { sendEmailFunction } from "./send-email";

// The send-email function with a real SMTP server on loopback; sleeps are mocked by @inngest/test.

let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  process.env.SMTP_URL = sink.url;
  resetEnvForTests();
});
afterEach(() => sink.setRefusing(false));
afterAll(async () => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  await sink.close();
});

/** Runs the function with its sleeps mocked; `between` runs in place of each sleep. */
function run(orgId: string, emailId: string, between: () => void = () => {}) {
  const engine = new InngestTestEngine({
    function: sendEmailFunction,
    events: [{ name: "email.queued", data: { event_id: crypto.randomUUID(), org_id: orgId, portal_id: null, email_id: emailId } }],
    steps: [1, 2, 3].map((n) => ({ id: `sleep-${n}`, handler: () => between() })),
  });
  return engine.execute();
}

function sleeps(ctx: { step: { sleep: { mock: { calls: unknown[][] } } } }) {
  return ctx.step.sleep.mock.calls.map((c) => [c[0], c[1]]);
}

describe("sendEmail with SMTP_URL and send-email", () => {
  it("queues an organization's email with an email.queued event; the function sends it once through SMTP", async () => {
    const org = await createTestOrg();
    const before = sink.messages.length;
    const queued = await sendEmail({ orgId: org.id, to: "guest@x.io", subject: "Hello", text: "Plain body", html: "<p>Plain body</p>", template: "test" });
    expect(queued.status).toBe("queued");
    const event = await db.event.findFirstOrThrow({ where: { orgId: org.id, type: "email.queued" } });
    expect(event.data).toEqual({ email_id: queued.id });
    expect(sink.messages.length).toBe(before);

    const { result } = await run(org.id, queued.id);
    expect(result).toEqual({ outcome: "sent", attempts: 1 });
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail!.to).toEqual(["guest@x.io"]);
    expect(mail!.data).toContain("Subject: Hello");
    expect(mail!.data).toContain("Plain body");
    expect(await db.outboundEmail.findUniqueOrThrow({ where: { id: queued.id } })).toMatchObject({ status: "sent", sentAt: expect.any(Date), error: null });

    // A repeated run (the relay's repeat, the engine's retry) sends nothing again.
    expect((await run(org.id, queued.id)).result).toEqual({ outcome: "skipped", attempts: 1 });
    expect(sink.messages.length).toBe(before + 1);
  });

  it("retries a refused send after 1, 5 and 30 minutes, then records the failure", async () => {
    const org = await createTestOrg();
    sink.setRefusing(true);
    const queued = await sendEmail({ orgId: org.id, to: "guest@x.io", subject: "Refused", text: "t", html: "<p>t</p>", template: "test" });
    const { result, ctx } = await run(org.id, queued.id);
    expect(result).toEqual({ outcome: "failed", attempts: 4 });
    expect(sleeps(ctx as never).map(([id]) => id)).toEqual(["sleep-1", "sleep-2", "sleep-3"]);
    const row = await db.outboundEmail.findUniqueOrThrow({ where: { id: queued.id } });
    expect(row.status).toBe("failed");
    expect(row.error).toMatch(/451/);
  });

  it("sends after a refused first attempt", async () => {
    const org = await createTestOrg();
    const before = sink.messages.length;
    sink.setRefusing(true);
    const queued = await sendEmail({ orgId: org.id, to: "late@x.io", subject: "Later", text: "t", html: "<p>t</p>", template: "test" });
    let calls = 0;
    const { result } = await run(org.id, queued.id, () => {
      calls += 1;
      sink.setRefusing(false);
    });
    expect(calls).toBe(1);
    expect(result).toEqual({ outcome: "sent", attempts: 2 });
    expect((await sink.waitFor(before + 1)).slice(before).map((m) => m.to)).toEqual([["late@x.io"]]);
  });

  it("sends a message without an organization (magic link) at once, one attempt", async () => {
    const before = sink.messages.length;
    const sent = await sendEmail({ to: "member@x.io", subject: "Sign in", text: "link", html: "<p>link</p>", template: "magic-link" });
    expect(sent.status).toBe("sent");
    expect((await sink.waitFor(before + 1)).slice(before).map((m) => m.to)).toEqual([["member@x.io"]]);
    sink.setRefusing(true);
    const failed = await sendEmail({ to: "member@x.io", subject: "Sign in", text: "link", html: "<p>link</p>", template: "magic-link" });
    expect(failed.status).toBe("failed");
    expect((await db.outboundEmail.findUniqueOrThrow({ where: { id: failed.id } })).status).toBe("failed");
  });
});

describe("sendEmail without SMTP_URL", () => {
  it("captures the message: no event, nothing sent (D29)", async () => {
    delete process.env.SMTP_URL;
    resetEnvForTests();
    try {
      const org = await createTestOrg();
      const captured = await sendEmail({ orgId: org.id, to: "guest@x.io", subject: "Kept", text: "t", html: "<p>t</p>", template: "test" });
      expect(captured.status).toBe("captured");
      expect(await db.event.count({ where: { orgId: org.id } })).toBe(0);
    } finally {
      process.env.SMTP_URL = sink.url;
      resetEnvForTests();
    }
  });
});
