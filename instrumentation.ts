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
}
