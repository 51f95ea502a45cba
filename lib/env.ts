import { z } from "zod";

// The only place that reads process.env. Validated once, on first use; instrumentation.ts calls
// env() at server start so bad configuration stops the server with one clear message.

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

const optionalUrl = optionalString.pipe(z.url().optional());

/** 32 bytes, given as 64 hex characters or base64. */
const encryptionKey = z.string().transform((v, ctx) => {
  const s = v.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(s) ? Buffer.from(s, "hex") : Buffer.from(s, "base64");
  if (bytes.length !== 32) {
    ctx.addIssue({ code: "custom", message: "must be 32 bytes as 64 hex characters or base64" });
    return z.NEVER;
  }
  return bytes;
});

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgresql:// URL" }),
    /** Connections of the request pool per process; background work has 5 more (docs/database.md). */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(2, "must be at least 2").max(200, "must be at most 200").default(20),
    APP_URL: z
      .url()
      .default("http://localhost:3000")
      .transform((u) => u.replace(/\/+$/, "")),
    API_URL: optionalUrl.transform((u) => u?.replace(/\/+$/, "")),
    AUTH_SECRET: z.string().min(32, "must be at least 32 characters"),
    APP_ENCRYPTION_KEY: encryptionKey,

    S3_ENDPOINT: optionalUrl,
    S3_REGION: z.string().default("us-east-1"),
    S3_BUCKET: z.string().min(1).default("client-portals"),
    S3_ACCESS_KEY_ID: optionalString,
    S3_SECRET_ACCESS_KEY: optionalString,
    S3_FORCE_PATH_STYLE: bool,
    /** Longest one storage call may take, retries included; then 503 service_unavailable. */
    S3_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),

    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional()),
    EMAIL_FROM: z.string().default("Client Portals <no-reply@client-portals.local>"),
    /** Shows captured email at /dev/mailbox in a production build too (demo and e2e servers). */
    DEV_MAILBOX: bool,

    INNGEST_EVENT_KEY: optionalString,
    INNGEST_SIGNING_KEY: optionalString,
    INNGEST_BASE_URL: optionalUrl,
    INNGEST_DEV: optionalString,
    /** Longest single step sleep (days): Inngest allows a year, its free plan 7 days. */
    INNGEST_MAX_SLEEP_DAYS: z.coerce.number().positive().max(365).default(7),
    /**
     * Wake-ups (a sleep and a check step each) one task-reminders run takes before it continues
     * in a fresh run: 300 stays under Inngest's 1000 steps per function; lowered in tests.
     */
    INNGEST_MAX_WAKES_PER_RUN: z.coerce.number().int().positive().max(450).default(300),

    /**
     * How long a client's new-request and a member's new-file notices wait for others of their
     * kind before they go out as one email (lib/notifications/batch.ts).
     */
    NOTIFY_BATCH_SECONDS: z.coerce.number().nonnegative().max(3600).default(60),

    OUTBOUND_ALLOW_PRIVATE: bool,
    WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().default(30),

    /** How long sign-in stays locked for an account or address after too many failures (lib/auth/throttle.ts). */
    AUTH_LOCK_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(15),
    /**
     * The WebAuthn relying party id passkeys are bound to: a registrable domain suffix of APP_URL's
     * host (default: that host). The expected origin is APP_URL's.
     */
    WEBAUTHN_RP_ID: optionalString,
    /** Proxies in front of the server whose X-Forwarded-For entries are trusted for the client's address (0: the socket's peer). */
    TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    /** Requests per OAuth client per UTC day (D7); lowered in tests. */
    API_RATE_LIMIT_PER_DAY: z.coerce.number().int().positive().default(10_000),
    /** Largest JSON body an /api/v1 request may send (413 payload_too_large above it). */
    API_MAX_BODY_BYTES: z.coerce.number().int().positive().default(1_048_576),

    /** Optional PEM (PKCS#8) private key for access tokens; generated and stored when unset. */
    OAUTH_SIGNING_KEY: optionalString,

    /** GET /readyz: the time limit of each dependency's check. */
    READINESS_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
    /** SIGTERM: how long the event relay's hand-off in progress may still take before the process exits. */
    SHUTDOWN_GRACE_MS: z.coerce.number().int().positive().default(10_000),
    /** pino's level: fatal, error, warn, info, debug, trace or silent. */
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),

    /**
     * The organization's PDF signing certificate and key (PKCS#12): a path to a .p12/.pfx file, or
     * the file itself as `base64:<bytes>`. Unset outside production: a self-signed certificate is
     * generated once and kept under .data/ (lib/signing/certificate.ts). Unset in production:
     * signing a document is refused with a message naming these variables.
     */
    PDF_SIGNING_P12: optionalString,
    PDF_SIGNING_P12_PASSWORD: z.string().default(""),
    /**
     * An RFC 3161 time-stamping authority (http or https URL). When set, every PDF signature
     * carries its time-stamp token (PAdES B-T) and signing fails when the authority does not
     * answer; unset, signatures are PAdES B-B.
     */
    PDF_SIGNING_TSA_URL: optionalUrl,

    PARTNER_API_URL: optionalUrl,
    PARTNER_RETRY_BASE_SECONDS: z.coerce.number().positive().default(60),
    PARTNER_RETRY_WINDOW_HOURS: z.coerce.number().positive().default(24),
  })
  .superRefine((e, ctx) => {
    // Browsers refuse a passkey ceremony whose RP id is not the page's host or a parent of it.
    const host = new URL(e.APP_URL).hostname;
    if (e.WEBAUTHN_RP_ID && host !== e.WEBAUTHN_RP_ID && !host.endsWith(`.${e.WEBAUTHN_RP_ID}`)) {
      ctx.addIssue({ code: "custom", path: ["WEBAUTHN_RP_ID"], message: `must be APP_URL's host (${host}) or a parent domain of it` });
    }
    // In production the app talks to Inngest Cloud (or a self-hosted Inngest): without both keys
    // events could not be sent and calls could not be verified. INNGEST_DEV opts into a Dev
    // Server explicitly (the end-to-end servers do); `npm start` never starts a local executor.
    if (e.NODE_ENV !== "production" || e.INNGEST_DEV !== undefined) return;
    for (const name of ["INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY"] as const) {
      if (!e[name]) {
        ctx.addIssue({
          code: "custom",
          path: [name],
          message: "is required in production (your Inngest environment's keys; or set INNGEST_DEV=1 to use an Inngest Dev Server)",
        });
      }
    }
  })
  .transform((e) => ({ ...e, API_URL: e.API_URL ?? e.APP_URL }));

export type Env = z.infer<typeof schema>;

export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigurationError";
  }
}

/** Parses a given environment; exported for tests. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = schema.safeParse(source);
  if (!result.success) {
    const lines = result.error.issues.map((i) => {
      const name = i.path.join(".") || "environment";
      const message = i.code === "invalid_type" && i.input === undefined ? "is required" : i.message;
      return `${name} ${message}`;
    });
    throw new ConfigurationError(`Invalid configuration: ${lines.join("; ")}`);
  }
  return result.data;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests that change process.env call this to re-read it. */
export function resetEnvForTests(): void {
  cached = undefined;
}
