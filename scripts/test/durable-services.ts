/**
 * What the durable end-to-end tier adds to the e2e server (scripts/e2e-server.ts with
 * E2E_PROFILE=durable, playwright.durable.config.ts): the local Inngest executor in cloud mode
 * (signed calls, event key), a loopback SMTP sink, and a small control API for the specs.
 *
 *   executor      127.0.0.1:E2E_INNGEST_PORT       (default E2E_PORT + 40)
 *   control API   127.0.0.1:E2E_INNGEST_PORT + 1
 *     GET  /state                 the executor's events and runs, and the mail the sink received
 *     POST /executor/stop|start   stop listening (connections refused) / listen again, state kept
 *     POST /time-scale?value=x    the executor's time scale for waits from now on
 *     POST /cron?fn=<id>          runs a cron-triggered function now
 */
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";

import { startSmtpSink } from "../../lib/email/test-support/smtp-sink.ts";
import { InngestExecutor } from "./inngest-executor.ts";

/** The ports both the server and the specs derive from E2E_PORT. */
export function durablePorts(env: NodeJS.ProcessEnv = process.env): { executor: number; control: number } {
  const executor = Number(env["E2E_INNGEST_PORT"] ?? Number(env["E2E_PORT"] ?? 3100) + 40);
  return { executor, control: executor + 1 };
}

/** Webhook sleeps of 30 s, 2 min, 8 min take 30, 120, 480 ms. */
export const DEFAULT_TIME_SCALE = 0.001;

/**
 * `durable`: everything above. `default` (the e2e tier): only an executor in dev mode on a free
 * port, so that `next start` has its Inngest and the background work of the browser specs runs.
 */
export async function startDurableServices(
  log: (line: string) => void,
  profile: "durable" | "default" = "durable",
): Promise<{
  env: Record<string, string>;
  /** Syncs the app once its serve endpoint answers. */
  sync(serveUrl: string): Promise<void>;
  stop(): Promise<void>;
}> {
  if (profile === "default") {
    const executor = new InngestExecutor({ timeScale: DEFAULT_TIME_SCALE, log: (l) => log(`inngest: ${l}`) });
    await executor.listen();
    log(`local Inngest executor (dev mode) at ${executor.url}`);
    return {
      env: { INNGEST_DEV: "1", INNGEST_BASE_URL: executor.url },
      sync: (serveUrl) => executor.syncWhenUp(serveUrl, 60_000),
      stop: () => executor.close(),
    };
  }
  const ports = durablePorts();
  const signingKey = `signkey-test-${randomBytes(32).toString("hex")}`;
  const eventKey = randomBytes(16).toString("hex");
  const executor = new InngestExecutor({ port: ports.executor, signingKey, eventKey, timeScale: DEFAULT_TIME_SCALE, log: (l) => log(`inngest: ${l}`) });
  await executor.listen();
  const smtp = await startSmtpSink();

  const control: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://control");
    const reply = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const act = async (): Promise<unknown> => {
      if (req.method === "GET" && url.pathname === "/state") return { ...executor.state(), mail: smtp.messages };
      if (req.method === "POST" && url.pathname === "/executor/stop") return executor.close();
      if (req.method === "POST" && url.pathname === "/executor/start") return executor.listen(ports.executor);
      if (req.method === "POST" && url.pathname === "/time-scale") return executor.setTimeScale(Number(url.searchParams.get("value")));
      if (req.method === "POST" && url.pathname === "/cron") return { run_id: executor.runCron(url.searchParams.get("fn") ?? "").id };
      throw new Error(`no route ${req.method} ${url.pathname}`);
    };
    act().then(
      (body) => reply(200, body ?? {}),
      (e: unknown) => reply(400, { error: e instanceof Error ? e.message : String(e) }),
    );
  });
  await new Promise<void>((resolve, reject) => control.once("error", reject).listen(ports.control, "127.0.0.1", resolve));
  log(`local Inngest executor (cloud mode, signed) at ${executor.url}; control API on port ${ports.control}; SMTP sink at ${smtp.url}`);

  return {
    env: {
      INNGEST_DEV: "0",
      INNGEST_BASE_URL: executor.url,
      INNGEST_EVENT_KEY: eventKey,
      INNGEST_SIGNING_KEY: signingKey,
      SMTP_URL: smtp.url,
      // The specs' webhook receivers listen on loopback.
      OUTBOUND_ALLOW_PRIVATE: "true",
    },
    sync: (serveUrl) => executor.syncWhenUp(serveUrl, 60_000),
    async stop() {
      await new Promise<void>((resolve) => control.close(() => resolve()));
      await executor.close();
      await smtp.close();
    },
  };
}
