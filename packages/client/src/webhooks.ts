// Verifying the service's webhook deliveries. Both signature schemes are keyed with the
// webhook's secret string as bytes (`whsec_` included): Standard Webhooks' `webhook-signature`
// (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, several space-separated during a secret
// rotation) and the contract's `X-Webhook-Signature` (hex HMAC-SHA256 of the body).

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookVerificationError";
  }
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
}

const encoder = new TextEncoder();

async function hmac(secret: string, data: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, new Uint8Array(data)));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const toHex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
const bytesOf = (body: string | Uint8Array) => (typeof body === "string" ? encoder.encode(body) : body);

export interface VerifyOptions {
  /** One secret, or several (e.g. the new and the old one while you switch after a rotation). */
  secret: string | string[];
  /** The raw request body, exactly as received. */
  body: string | Uint8Array;
  headers: HeaderSource;
  /** Oldest and newest accepted `webhook-timestamp` around now (default 300 s). */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Verifies a delivery's Standard Webhooks signature and timestamp and returns the parsed payload;
 * throws WebhookVerificationError otherwise. Deduplicate on `webhook-id` (the delivery id).
 */
export async function verifyWebhook<T = Record<string, unknown>>({
  secret,
  body,
  headers,
  toleranceSeconds = 300,
  now = new Date(),
}: VerifyOptions): Promise<T> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError("Missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("Invalid webhook-timestamp");
  const age = Math.floor(now.getTime() / 1000) - Number(timestamp);
  if (Math.abs(age) > toleranceSeconds) throw new WebhookVerificationError(age > 0 ? "Message timestamp too old" : "Message timestamp too new");
  const raw = bytesOf(body);
  const signed = new Uint8Array([...encoder.encode(`${id}.${timestamp}.`), ...raw]);
  const given = signatures
    .split(" ")
    .map((s) => s.split(","))
    .filter(([version, value]) => version === "v1" && value)
    .map(([, value]) => encoder.encode(value));
  for (const s of Array.isArray(secret) ? secret : [secret]) {
    const expected = encoder.encode(toBase64(await hmac(s, signed)));
    if (given.some((g) => sameBytes(g, expected))) return JSON.parse(new TextDecoder().decode(raw)) as T;
  }
  throw new WebhookVerificationError("No matching signature found");
}

/**
 * Verifies the contract's `X-Webhook-Signature` (or, after a rotation, `X-Webhook-Signature-Previous`)
 * against the raw body in constant time. It carries no timestamp: check the payload's `timestamp`.
 */
export async function verifyWebhookSignature({ secret, body, headers }: Omit<VerifyOptions, "toleranceSeconds" | "now">): Promise<boolean> {
  const given = ["x-webhook-signature", "x-webhook-signature-previous"].map((n) => header(headers, n)).filter((v): v is string => Boolean(v));
  for (const s of Array.isArray(secret) ? secret : [secret]) {
    const expected = encoder.encode(toHex(await hmac(s, bytesOf(body))));
    if (given.some((g) => sameBytes(encoder.encode(g.toLowerCase()), expected))) return true;
  }
  return false;
}
