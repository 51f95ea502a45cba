import { refreshTokens, type OAuthClientCredentials, type Tokens } from "./oauth";

// The fetch that openapi-fetch sends every request through: the bearer token (refreshed before
// it expires and once after a 401 invalid_token), an Idempotency-Key on every POST (the same key
// for every retry of that request), and back-off on 429 and 503 as Retry-After says.

export interface TransportOptions {
  tokens: Tokens;
  /** Needed to refresh; without it a 401 is returned as it is. */
  oauth?: OAuthClientCredentials;
  /** Called with every new token pair: store the rotated refresh token, the old one stops working. */
  onTokens?: (tokens: Tokens) => void | Promise<void>;
  /** Retries of a 429 or 503 (default 4). */
  maxRetries?: number;
  /** Longest wait before a retry (default 60 s); a longer Retry-After gives up and returns the answer. */
  maxRetryDelayMs?: number;
  /** Waits (tests replace it). */
  sleep?: (ms: number) => Promise<void>;
  /** Keys for POSTs without one (default crypto.randomUUID). */
  idempotencyKey?: () => string;
  fetch?: (input: Request) => Promise<Response>;
}

/** Refresh this long before the access token expires. */
const EXPIRY_MARGIN_MS = 30_000;

/** Retry-After in seconds or as an HTTP date, in ms; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export class Transport {
  private tokens: Tokens;
  private refreshing: Promise<Tokens> | null = null;
  private readonly send: (input: Request) => Promise<Response>;

  constructor(private readonly options: TransportOptions) {
    this.tokens = options.tokens;
    this.send = options.fetch ?? ((r) => fetch(r));
  }

  currentTokens(): Tokens {
    return this.tokens;
  }

  /** One refresh at a time: concurrent requests that need one share it. */
  refresh(): Promise<Tokens> {
    const { oauth } = this.options;
    const refreshToken = this.tokens.refreshToken;
    if (!oauth || !refreshToken) return Promise.reject(new Error("No refresh token or client credentials to refresh with"));
    this.refreshing ??= refreshTokens(oauth, refreshToken, this.send)
      .then(async (tokens) => {
        this.tokens = tokens;
        await this.options.onTokens?.(tokens);
        return tokens;
      })
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  private canRefresh(): boolean {
    return Boolean(this.options.oauth && this.tokens.refreshToken);
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const template = request.clone();
    if (template.method === "POST" && !template.headers.has("Idempotency-Key")) {
      template.headers.set("Idempotency-Key", (this.options.idempotencyKey ?? (() => crypto.randomUUID()))());
    }
    const maxRetries = this.options.maxRetries ?? 4;
    const maxDelay = this.options.maxRetryDelayMs ?? 60_000;
    const sleep = this.options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
    let refreshed = false;
    for (let retry = 0; ; retry++) {
      if (this.canRefresh() && this.tokens.expiresAt && this.tokens.expiresAt.getTime() - Date.now() < EXPIRY_MARGIN_MS) await this.refresh();
      const attempt = template.clone();
      attempt.headers.set("Authorization", `Bearer ${this.tokens.accessToken}`);
      const response = await this.send(attempt);
      if (response.status === 401 && !refreshed && this.canRefresh() && /invalid_token/.test(response.headers.get("WWW-Authenticate") ?? "invalid_token")) {
        refreshed = true;
        await this.refresh();
        retry--;
        continue;
      }
      if ((response.status === 429 || response.status === 503) && retry < maxRetries) {
        const delay = retryAfterMs(response.headers.get("Retry-After")) ?? Math.min(maxDelay, 1000 * 2 ** retry + Math.floor(Math.random() * 250));
        if (delay <= maxDelay) {
          await response.body?.cancel();
          await sleep(delay);
          continue;
        }
      }
      return response;
    }
  };
}
