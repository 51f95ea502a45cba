import { Writable } from "node:stream";
import { createLogger, setLoggerForTests } from "@/lib/log";

// Tests that check what is logged: the process's logger writes into an array until restored.

export type LogLine = Record<string, unknown>;

/** From now on log() writes here; call restoreLogger() (e.g. in afterEach) to go back to stdout. */
export function captureLog(): LogLine[] {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) lines.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  setLoggerForTests(createLogger(stream));
  return lines;
}

export function restoreLogger(): void {
  setLoggerForTests(undefined);
}
