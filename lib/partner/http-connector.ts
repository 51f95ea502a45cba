import { isOutboundError, outboundRequest, outboundUpload, type OutboundPolicy, type OutboundResponse } from "@/lib/outbound";
import {
  PartnerError,
  type FileAnnouncement,
  type PartnerConnector,
  type PartnerCredentials,
  type PushKey,
  type UploadTicket,
  type VerifyOutcome,
} from "./connector";

// The connector over HTTP (protocol in docs/decisions.md, "Partner integration"), every request through
// the SSRF-safe outbound client. JSON in and out; `Authorization: Bearer <api key>`; the
// idempotency key of a push is `<entity id>:<event>`.

const CALL_TIMEOUT_MS = 10_000;
/** 100 MB at a modest 1 MB/s, plus margin; the upload URL lives longer than this at the partner. */
const UPLOAD_TIMEOUT_MS = 15 * 60_000;

export interface HttpConnectorOptions {
  /** Tests only (default: from the environment). */
  policy?: OutboundPolicy;
}

function endpoint(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}${path}`;
}

function parseJson(res: OutboundResponse): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(res.body.toString("utf8"));
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The failure a non-2xx answer means. */
function failure(res: OutboundResponse, what: string): PartnerError {
  const body = parseJson(res);
  const detail = typeof body.error_description === "string" ? `: ${body.error_description}` : "";
  if (res.status === 401 || res.status === 403) return new PartnerError("credential_rejected", `The partner rejected the credentials (${what})`, res.status);
  if (res.status === 408 || res.status === 410 || res.status === 429 || res.status >= 500)
    return new PartnerError("transient", `The partner answered ${res.status} (${what})${detail}`, res.status);
  return new PartnerError("rejected", `The partner refused ${what} with ${res.status}${detail}`, res.status);
}

async function call<T>(send: () => Promise<T>, what: string): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (isOutboundError(error)) throw new PartnerError("transient", `The partner could not be reached (${what}): ${error.reason}`);
    throw error;
  }
}

function text(value: unknown, name: string): string {
  if (typeof value !== "string" || value === "") throw new PartnerError("transient", `The partner's answer has no ${name}`);
  return value;
}

export function httpConnector(credentials: PartnerCredentials, options: HttpConnectorOptions = {}): PartnerConnector {
  const headers = { authorization: `Bearer ${credentials.apiKey}`, accept: "application/json" };
  const json = (method: "GET" | "POST", path: string, body?: unknown, extra: Record<string, string> = {}) =>
    outboundRequest({
      url: endpoint(credentials.apiUrl, path),
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: CALL_TIMEOUT_MS,
      policy: options.policy,
    });
  const idempotencyKey = (k: PushKey) => ({ "idempotency-key": `${k.entityId}:${k.event}` });

  return {
    async verifyCustomer(customerId: string): Promise<VerifyOutcome> {
      const res = await call(() => json("GET", `/v1/customers/${encodeURIComponent(customerId)}`), "customer lookup");
      if (res.status === 404) return { status: "not_found" };
      if (res.status === 401 || res.status === 403) return { status: "credential_rejected" };
      if (res.status !== 200) throw failure(res, "customer lookup");
      const body = parseJson(res);
      return {
        status: "linked",
        customer: { customerId, tenantId: text(body.tenant_id, "tenant_id"), displayName: text(body.display_name, "display_name") },
      };
    },

    async requestUpload(file: FileAnnouncement): Promise<UploadTicket> {
      const body = {
        customer_id: file.customerId,
        entity_id: file.entityId,
        event: file.event,
        file_id: file.fileId,
        name: file.name,
        size: file.size,
        content_type: file.contentType,
        sha256: file.sha256,
      };
      const res = await call(() => json("POST", "/v1/uploads", body, idempotencyKey(file)), "upload request");
      if (res.status === 409) return { kind: "already_received" };
      if (res.status !== 201 && res.status !== 200) throw failure(res, "upload request");
      const answer = parseJson(res);
      return { kind: "upload", uploadUrl: text(answer.upload_url, "upload_url"), expiresAt: text(answer.expires_at, "expires_at") };
    },

    async uploadBytes({ uploadUrl, body, size, sha256 }) {
      const res = await call(
        () =>
          outboundUpload({
            url: uploadUrl,
            method: "PUT",
            headers: { "content-type": "application/octet-stream", "x-checksum-sha256": sha256 },
            body,
            contentLength: size,
            timeoutMs: UPLOAD_TIMEOUT_MS,
            policy: options.policy,
          }),
        "upload",
      );
      if (res.status < 200 || res.status >= 300) throw failure(res, "upload");
    },

    async sendNotice(notice) {
      const body = { customer_id: notice.customerId, entity_id: notice.entityId, event: notice.event, data: notice.data };
      const res = await call(() => json("POST", "/v1/notices", body, idempotencyKey(notice)), "notice");
      if (res.status !== 200 && res.status !== 201 && res.status !== 202) throw failure(res, "notice");
      return { duplicate: parseJson(res).duplicate === true };
    },
  };
}
