import type { Readable } from "node:stream";

// The partner's operations as the product needs them (D25). The partner's own API is not given:
// this interface is the contract, lib/partner/http-connector.ts speaks it over HTTP and
// scripts/partner-sandbox.ts answers it.

export interface PartnerCredentials {
  /** Base URL of the partner API, e.g. https://partner.example/api. */
  apiUrl: string;
  apiKey: string;
}

interface PartnerCustomer {
  customerId: string;
  tenantId: string;
  displayName: string;
}

export type VerifyOutcome = { status: "linked"; customer: PartnerCustomer } | { status: "not_found" } | { status: "credential_rejected" };

/** The event a push is idempotent on, with the entity (file, task or event id). */
export interface PushKey {
  customerId: string;
  entityId: string;
  event: string;
}

export interface FileAnnouncement extends PushKey {
  fileId: string;
  name: string;
  size: number;
  contentType: string;
  /** Lower-case hex SHA-256 of the bytes that will be uploaded. */
  sha256: string;
}

/** A short-lived URL for the bytes, or the partner already has this (entity, event). */
export type UploadTicket = { kind: "upload"; uploadUrl: string; expiresAt: string } | { kind: "already_received" };

export interface PartnerConnector {
  verifyCustomer(customerId: string): Promise<VerifyOutcome>;
  requestUpload(file: FileAnnouncement): Promise<UploadTicket>;
  /** Streams the bytes; the partner refuses them unless their SHA-256 is the announced one. */
  uploadBytes(input: { uploadUrl: string; body: Readable; size: number; sha256: string }): Promise<void>;
  /** A metadata notice; `duplicate` when the partner had it already. */
  sendNotice(notice: PushKey & { data: Record<string, unknown> }): Promise<{ duplicate: boolean }>;
}

/**
 * Why a partner call failed. `transient`: worth retrying (unreachable, timeout, 5xx, 429, an
 * expired upload URL); `credential_rejected`: the organization's credentials; `rejected`: the
 * partner refused the request itself (4xx), retrying the same request will not help.
 */
export type PartnerFailure = "transient" | "credential_rejected" | "rejected";

export class PartnerError extends Error {
  readonly kind: PartnerFailure;
  readonly statusCode: number | null;

  constructor(kind: PartnerFailure, message: string, statusCode: number | null = null) {
    super(message);
    this.name = "PartnerError";
    this.kind = kind;
    this.statusCode = statusCode;
  }
}

export function isPartnerError(e: unknown): e is PartnerError {
  return e instanceof PartnerError;
}
