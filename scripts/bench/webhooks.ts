/**
 * Benchmark: webhook delivery attempts per second through the delivery code path
 * (lib/webhooks/attempt-delivery.ts: load the delivery, build the payload, sign it, POST it
 * through the SSRF-safe client, log the attempt, finish the delivery) to a loopback receiver,
 * 16 at a time, on a fresh database. Target: >= 200 attempts/s. Every request the
 * receiver gets is checked against its HMAC signature, and each delivery is received once.
 *
 *   npx tsx --conditions=react-server scripts/bench/webhooks.ts
 */
import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import { pathToFileURL } from "node:url";

import { benchPort } from "./app-server.ts";
import type { Bench, BenchRow } from "./report.ts";
import { startBenchServices } from "./services.ts";

const DELIVERIES = Number(process.env["BENCH_WEBHOOK_DELIVERIES"] ?? 1000);
const CONCURRENCY = 16;
const TARGET_PER_SECOND = 200;

async function runWebhookBench(): Promise<BenchRow[]> {
  const services = await startBenchServices({
    databaseName: "client_portals_bench_webhooks",
    tmpPrefix: "cp-bench-webhooks-",
    env: { OUTBOUND_ALLOW_PRIVATE: "true" },
  });
  const received = new Map<string, number>();
  let badSignatures = 0;
  let secret = "";
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const id = String(req.headers["x-webhook-delivery-id"]);
      received.set(id, (received.get(id) ?? 0) + 1);
      const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex");
      if (req.headers["x-webhook-signature"] !== expected) badSignatures++;
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(benchPort(20), "127.0.0.1", resolve));
  try {
    const { db } = await import("@/lib/db");
    const { createTestOrg, createTestPortal, createTestUser } = await import("@/lib/test-support/fixtures");
    const { getUserViewer } = await import("@/lib/access/viewer");
    const { createWebhook } = await import("@/lib/webhooks/create-webhook");
    const { attemptDelivery } = await import("@/lib/webhooks/attempt-delivery");

    const org = await createTestOrg({ name: "Webhook benchmark" });
    const admin = await createTestUser({ orgId: org.id, role: "admin" });
    const viewer = await getUserViewer(admin.id, org.id);
    const portal = await createTestPortal({ orgId: org.id });
    const webhook = await createWebhook({ viewer, url: `http://127.0.0.1:${benchPort(20)}/hook`, events: ["portal.created"] });
    secret = webhook.secret;
    const events = Array.from({ length: DELIVERIES }, () => ({
      id: crypto.randomUUID(),
      orgId: org.id,
      portalId: portal.id,
      type: "portal.created",
      data: { created_by: admin.id, tags: [], is_template: false },
      dispatchedAt: new Date(),
    }));
    await db.event.createMany({ data: events });
    await db.webhookDelivery.createMany({ data: events.map((e) => ({ webhookId: webhook.webhook_id, eventId: e.id, eventType: e.type })) });
    const deliveries = (await db.webhookDelivery.findMany({ where: { webhookId: webhook.webhook_id }, select: { id: true } })).map((d) => d.id);

    let next = 0;
    const outcomes = new Map<string, number>();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < deliveries.length) {
          const deliveryId = deliveries[next++]!;
          const r = await attemptDelivery({ deliveryId, number: 1, last: false });
          outcomes.set(r.outcome, (outcomes.get(r.outcome) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    // CPU of this process (the delivery code path and the loopback receiver; PostgreSQL's own
    // work is not in it) per attempt: the signal that a loaded machine does not blur.
    const cpu = process.cpuUsage(cpu0);
    const cpuMsPerAttempt = +((cpu.user + cpu.system) / 1000 / deliveries.length).toFixed(2);
    const perSecond = +(deliveries.length / seconds).toFixed(1);
    const succeeded = outcomes.get("succeeded") ?? 0;
    const duplicates = [...received.values()].filter((n) => n > 1).length;
    const correct = succeeded === deliveries.length && received.size === deliveries.length && duplicates === 0 && badSignatures === 0;
    const counted = await db.webhook.findUniqueOrThrow({ where: { id: webhook.webhook_id }, select: { successCount: true } });
    return [
      {
        work: "Webhook attempts (sign + POST to loopback + log)",
        product: `${perSecond} attempts/s, ${cpuMsPerAttempt} ms CPU/attempt (${deliveries.length} in ${seconds.toFixed(1)} s, ${succeeded} succeeded, ${badSignatures} bad signatures, ${duplicates} duplicates)`,
        anchor: "—",
        ratio: null,
        target: `>= ${TARGET_PER_SECOND}/s, each once`,
        met: perSecond >= TARGET_PER_SECOND && correct && counted.successCount === deliveries.length,
        details: {
          perSecond,
          cpuMsPerAttempt,
          outcomes: Object.fromEntries(outcomes),
          received: received.size,
          duplicates,
          badSignatures,
          successCount: counted.successCount,
        },
      },
    ];
  } finally {
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await services.stop();
  }
}

export const webhookBench: Bench = { name: "Webhook delivery", run: runWebhookBench };

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { printTable } = await import("./report.ts");
  printTable(await runWebhookBench());
  process.exit(0);
}
