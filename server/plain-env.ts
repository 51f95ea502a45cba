/**
 * The environment as a plain object, for the rest of the process's life: imported first by
 * server/index.ts, before Next.js and the app's modules (the server itself is imported after it).
 *
 * Why: `process.env` is backed by the C environment, and every property read of it is a call into
 * Node's C++ side. The Inngest SDK copies the whole environment (Object.entries(process.env), to
 * pick its own variables) several times on every call of /api/inngest and every event it sends:
 * 12.7% of the server's CPU under the write benchmark (docs/operations.md).
 *
 * What changes: values set on `process.env` later are no longer coerced to strings, and do not
 * reach the C environment (so native code that calls getenv(), e.g. a TZ set at run time, would not
 * see them). Nothing in the app sets the environment after start; child processes still get
 * `process.env` (spawn reads it when no `env` is given).
 */
process.env = { ...process.env };
