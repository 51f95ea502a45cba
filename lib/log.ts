import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";
import { env } from "@/lib/env";

// The one logger: JSON lines on stdout (pino). Inside withLogContext() every line also carries that
// context (an API request's request_id, method and path), however deep the code that logs.

export type LogContext = Record<string, string | number>;

const context = new AsyncLocalStorage<LogContext>();

/** A logger as the process's, writing to `destination` (stdout by default). */
export function createLogger(destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: level(),
    base: { service: "client-portals" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => context.getStore() ?? {},
  };
  return destination ? pino(options, destination) : pino(options);
}

/** LOG_LEVEL; "info" where the environment is not complete (a script, `next build`). */
function level(): string {
  try {
    return env().LOG_LEVEL;
  } catch {
    return "info";
  }
}

const globalForLog = globalThis as unknown as { __log?: Logger };

/** The process's logger (created on first use, so that importing this module reads no configuration). */
export function log(): Logger {
  globalForLog.__log ??= createLogger();
  return globalForLog.__log;
}

/** Tests: the process's logger is replaced by `logger` (undefined: back to stdout). */
export function setLoggerForTests(logger: Logger | undefined): void {
  globalForLog.__log = logger;
}

/** Runs `fn` with `fields` on every line it logs. */
export function withLogContext<T>(fields: LogContext, fn: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, fn);
}

/** Runs `fn` outside any context: for work it starts that outlives the request (timers of the relay). */
export function withoutLogContext<T>(fn: () => T): T {
  return context.exit(fn);
}
