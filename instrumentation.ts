// Runs once when a server process starts (next dev / next start).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Bad configuration stops the server here, with one message naming the variable.
  const { env } = await import("@/lib/env");
  env();
  // Hand events recorded by committed transactions to Inngest (D22): loading the client registers
  // it as the outbox's sender.
  await import("@/inngest/client");
  const { startEventRelay } = await import("@/lib/events/event-relay");
  const relay = startEventRelay({ intervalMs: 1_000 });
  // On SIGTERM/SIGINT the relay starts no new run and the process exits after its current one.
  const { finishBeforeExit } = await import("@/lib/shutdown");
  finishBeforeExit(() => relay.stop(), env().SHUTDOWN_GRACE_MS);
  // The production server (server/index.ts) serves the API's route handlers itself: it finds
  // them here, in the build's own modules (issue 17).
  if (process.env["CLIENT_PORTALS_SERVER"] === "1") {
    const [{ createApiDispatcher, API_DISPATCHER }, { API_ROUTE_TABLE }] = await Promise.all([import("@/lib/api/dispatch"), import("@/app/api/route-table")]);
    (globalThis as Record<symbol, unknown>)[API_DISPATCHER] = createApiDispatcher(API_ROUTE_TABLE);
  }
}
