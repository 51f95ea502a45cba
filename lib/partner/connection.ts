import { z } from "zod";
import { requireOrg } from "@/lib/access/policy";
import { actorOf, userIdOf, type Viewer } from "@/lib/access/viewer";
import { recordAudit } from "@/lib/audit/record-audit";
import { decrypt, encrypt } from "@/lib/crypto";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { withChange } from "@/lib/events/with-change";
import { applyPartnerIdChange } from "@/lib/external-ids/partner-link";
import { PARTNER_SYSTEM } from "@/lib/external-ids/schemas";
import { checkOutboundUrl, isOutboundError } from "@/lib/outbound";
import { isPartnerError, type PartnerConnector, type PartnerCredentials } from "./connector";
import { httpConnector } from "./http-connector";

// The organization's connection to the partner (settings → Partner integration): credentials
// stored encrypted, checked against the partner before they are saved.

/** A customer id the test lookup asks for: any answer but 401 proves the credentials. */
const PROBE_CUSTOMER = "000000";

const credentialsSchema = z.strictObject({ apiUrl: z.string(), apiKey: z.string() });

const connectInput = z.strictObject({
  apiUrl: z
    .string()
    .trim()
    .max(2000)
    .optional()
    .transform((v) => (v ? v : undefined)),
  apiKey: z.string().trim().min(1, "Enter the API key the partner gave you").max(500),
});

export interface PartnerConnectionStatus {
  connected: boolean;
  apiUrl: string | null;
  /** Last 4 characters of the key, to tell keys apart. */
  apiKeyHint: string | null;
  connectedAt: Date | null;
  /** The URL used when none is entered (PARTNER_API_URL), if configured. */
  defaultApiUrl: string | null;
}

function connectorFor(credentials: PartnerCredentials): PartnerConnector {
  return httpConnector(credentials);
}

/** The connector of a connected organization, or null when it is not connected. */
export async function connectorForOrg(orgId: string): Promise<PartnerConnector | null> {
  const row = await db.partnerConnection.findFirst({ where: { orgId, status: "connected" }, select: { credentialsEncrypted: true } });
  if (!row) return null;
  return connectorFor(readCredentials(row.credentialsEncrypted));
}

function readCredentials(sealed: string): PartnerCredentials {
  try {
    return credentialsSchema.parse(JSON.parse(decrypt(sealed)));
  } catch {
    // Unreadable (another APP_ENCRYPTION_KEY): every call fails until an admin reconnects.
    return { apiUrl: "http://invalid.invalid", apiKey: "" };
  }
}

function resolveInput(input: { apiUrl?: string; apiKey: string }): PartnerCredentials {
  const parsed = connectInput.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError(
      "invalid_request",
      `${String(issue?.path[0] ?? "apiKey")}: ${issue?.message ?? "invalid"}`,
      {},
      { field: String(issue?.path[0] ?? "apiKey"), userMessage: issue?.message },
    );
  }
  const apiUrl = parsed.data.apiUrl ?? env().PARTNER_API_URL;
  if (!apiUrl) {
    throw new AppError(
      "invalid_request",
      "apiUrl: Enter the partner API address (PARTNER_API_URL is not configured)",
      {},
      {
        field: "apiUrl",
        userMessage: "Enter the partner API address (no default is configured on this server)",
      },
    );
  }
  return { apiUrl, apiKey: parsed.data.apiKey };
}

/**
 * Checks credentials against the partner without saving anything: a customer lookup that any
 * answer but "credentials rejected" passes. Throws an AppError naming the fix otherwise.
 */
export async function testPartnerCredentials({ viewer, ...input }: { viewer: Viewer; apiUrl?: string; apiKey: string }): Promise<{ ok: true }> {
  requireOrg(viewer, "managePartner");
  const credentials = resolveInput(input);
  await probe(credentials);
  return { ok: true };
}

async function probe(credentials: PartnerCredentials): Promise<void> {
  try {
    await checkOutboundUrl(credentials.apiUrl);
  } catch (error) {
    if (!isOutboundError(error)) throw error;
    throw new AppError("invalid_request", `apiUrl: ${error.message}`, {}, { field: "apiUrl", userMessage: `This address cannot be used: ${error.message}` });
  }
  try {
    const outcome = await connectorFor(credentials).verifyCustomer(PROBE_CUSTOMER);
    if (outcome.status === "credential_rejected") {
      throw new AppError(
        "invalid_request",
        "apiKey: The partner rejected this API key",
        {},
        { field: "apiKey", userMessage: "The partner rejected this API key; check it and try again" },
      );
    }
  } catch (error) {
    if (!isPartnerError(error)) throw error;
    const message =
      error.kind === "credential_rejected" ? "The partner rejected this API key; check it and try again" : `The partner could not be reached: ${error.message}`;
    throw new AppError(
      "invalid_request",
      `apiUrl: ${message}`,
      {},
      { field: error.kind === "credential_rejected" ? "apiKey" : "apiUrl", userMessage: message },
    );
  }
}

/**
 * Connects (or reconnects with new credentials) after a successful test. Portals that already have
 * a partner id start their verification.
 */
export async function connectPartner({ viewer, ...input }: { viewer: Viewer; apiUrl?: string; apiKey: string }): Promise<PartnerConnectionStatus> {
  requireOrg(viewer, "managePartner");
  const credentials = resolveInput(input);
  await probe(credentials);
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  await withChange(async (tx) => {
    const sealed = encrypt(JSON.stringify(credentials));
    const fields = { status: "connected" as const, credentialsEncrypted: sealed, connectedById: userIdOf(viewer), connectedAt: new Date() };
    await tx.partnerConnection.upsert({ where: { orgId }, create: { orgId, ...fields }, update: fields });
    await recordAudit(tx, {
      orgId,
      actor,
      action: "partner.connected",
      targetType: "partner_connection",
      targetId: orgId,
      metadata: { api_url: credentials.apiUrl },
    });
    const ids = await tx.externalSystemId.findMany({
      where: { orgId, systemKey: PARTNER_SYSTEM, portal: { deletedAt: null } },
      select: { portalId: true, value: true },
    });
    for (const { portalId, value } of ids) await applyPartnerIdChange(tx, { orgId, portalId, actor, previous: null, next: value });
  });
  return getPartnerConnection({ viewer });
}

/** Disconnects: credentials are deleted; links stay, and show again when reconnected. Not connected: nothing to do. */
export async function disconnectPartner({ viewer }: { viewer: Viewer }): Promise<PartnerConnectionStatus> {
  requireOrg(viewer, "managePartner");
  const { orgId } = viewer;
  const actor = actorOf(viewer);
  await withChange(async (tx) => {
    const row = await tx.partnerConnection.findUnique({ where: { orgId } });
    if (!row || row.status === "disconnected") return;
    await tx.partnerConnection.update({ where: { orgId }, data: { status: "disconnected", credentialsEncrypted: "" } });
    await recordAudit(tx, { orgId, actor, action: "partner.disconnected", targetType: "partner_connection", targetId: orgId });
  });
  return getPartnerConnection({ viewer });
}

export async function getPartnerConnection({ viewer }: { viewer: Viewer }): Promise<PartnerConnectionStatus> {
  requireOrg(viewer, "managePartner");
  const row = await db.partnerConnection.findUnique({ where: { orgId: viewer.orgId } });
  const defaultApiUrl = env().PARTNER_API_URL ?? null;
  if (!row || row.status !== "connected") return { connected: false, apiUrl: null, apiKeyHint: null, connectedAt: null, defaultApiUrl };
  const credentials = readCredentials(row.credentialsEncrypted);
  return { connected: true, apiUrl: credentials.apiUrl, apiKeyHint: credentials.apiKey.slice(-4), connectedAt: row.connectedAt, defaultApiUrl };
}
