import { isOutboundError, outboundRequest, type OutboundPolicy } from "@/lib/outbound";
import { DELIVERY_TIMEOUT_MS, RESPONSE_BODY_LIMIT } from "./config";
import { signatureHeaders } from "./secret";

export interface WebhookRequest {
  url: string;
  secret: string;
  /** The secret a rotation replaced, while its grace period lasts: its signatures are sent too. */
  previousSecret?: string | null;
  deliveryId: string;
  /** The attempt's time (the payload's `timestamp`, `webhook-timestamp`); default now. */
  sentAt?: Date;
  eventType: string;
  payload: Record<string, unknown>;
  /** D20: 10 s; tests of the attempt logic pass less. */
  timeoutMs?: number;
  /** Tests only (default: from the environment). */
  outboundPolicy?: OutboundPolicy;
}

export interface WebhookResponse {
  startedAt: Date;
  durationMs: number;
  success: boolean;
  /** Null when the receiver never answered (refused address, DNS, connection, TLS, timeout). */
  statusCode: number | null;
  error: string | null;
  /** The first 1 KB of the response body, as text. */
  responseBody: string | null;
}

/**
 * One signed POST (D20): the body is serialised once and those exact bytes are signed (both
 * schemes, see signatureHeaders) and sent.
 * Redirects are not followed; success is a 2xx within the time limit. Never throws: every
 * failure to reach the receiver is an outcome for the attempt log.
 */
export async function sendWebhookRequest(request: WebhookRequest): Promise<WebhookResponse> {
  const body = Buffer.from(JSON.stringify(request.payload), "utf8");
  const startedAt = new Date();
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await outboundRequest({
      url: request.url,
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...signatureHeaders({
          secret: request.secret,
          previousSecret: request.previousSecret,
          deliveryId: request.deliveryId,
          sentAt: request.sentAt ?? startedAt,
          body,
        }),
        "X-Webhook-Delivery-Id": request.deliveryId,
        "X-Webhook-Event": request.eventType,
      },
      body,
      timeoutMs: request.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      maxRedirects: 0,
      maxResponseBytes: RESPONSE_BODY_LIMIT,
      policy: request.outboundPolicy,
    });
    const success = res.status >= 200 && res.status < 300;
    return {
      startedAt,
      durationMs: elapsed(),
      success,
      statusCode: res.status,
      error: success ? null : res.status >= 300 && res.status < 400 ? `redirect (HTTP ${res.status}) not followed` : `HTTP ${res.status}`,
      responseBody: text(res.body),
    };
  } catch (e) {
    const error = isOutboundError(e) ? `${e.reason}: ${e.message}` : e instanceof Error ? e.message : String(e);
    return { startedAt, durationMs: elapsed(), success: false, statusCode: null, error, responseBody: null };
  }
}

/** PostgreSQL text cannot hold NUL; a cut multi-byte character becomes U+FFFD. */
function text(body: Buffer): string {
  return body.subarray(0, RESPONSE_BODY_LIMIT).toString("utf8").replaceAll("\u0000", "");
}
