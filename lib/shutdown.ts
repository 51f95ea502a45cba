import { log } from "@/lib/log";

// Graceful shutdown of a server process. `next start` handles SIGTERM and SIGINT itself (Next 16,
// server/lib/start-server.js): it stops accepting connections, lets the requests in flight finish,
// closes the app and then calls process.exit. What it does not know about is work of ours that
// runs outside requests: the event relay's hand-off in progress. This holds that exit until
// `stop` has finished (at most `graceMs`), so a hand-off is never cut off half-way.

export function finishBeforeExit(stop: () => Promise<void>, graceMs: number): void {
  let done: Promise<void> | undefined;
  const begin = (signal: NodeJS.Signals) => {
    if (done) return;
    log().info({ signal }, "shutting down: requests in flight and the event relay's hand-off finish first");
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
    done = Promise.race([
      stop().then(
        () => log().info("event relay stopped"),
        (err: unknown) => log().error({ err }, "stopping the event relay failed"),
      ),
      timeout.then(() => log().warn({ graceMs }, "the event relay did not stop in time")),
    ]);
    const exit = process.exit.bind(process);
    // Next's handler calls process.exit when its part is done; ours may still be running.
    process.exit = ((code?: number) => {
      void done!.finally(() => exit(code));
    }) as typeof process.exit;
  };
  process.once("SIGTERM", begin);
  process.once("SIGINT", begin);
}
