import "server-only";
import { createPrivateKey, createPublicKey, type JsonWebKey as NodeJsonWebKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, exportPKCS8, generateKeyPair, importPKCS8, type JWK } from "jose";
import { decrypt, encrypt } from "@/lib/crypto";
import { db, type Tx } from "@/lib/db";
import { env } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { execute, sql } from "@/lib/sql";

// Access tokens are signed with an asymmetric key (D23). The key comes from OAUTH_SIGNING_KEY or
// is generated on first use and stored encrypted. Rotation keeps the old key in the JWKS as
// `retiring` until every token it signed has expired.

const ALG = "ES256";

export interface ActiveKey {
  kid: string;
  alg: string;
  /**
   * A node:crypto KeyObject, parsed once per load (every 60 s at most), not per token: the token
   * endpoint signs with node:crypto directly (access-token.ts), and jose accepts a KeyObject too.
   */
  privateKey: KeyObject;
}

const CACHE_MS = 60_000;
let activeCache: { key: ActiveKey; at: number } | undefined;
let verifyCache: { keys: JWK[]; at: number } | undefined;
/** Loads in flight, shared by every request that finds the cache empty or stale meanwhile. */
let activeLoading: Promise<ActiveKey> | undefined;
let keysLoading: Promise<JWK[]> | undefined;
/**
 * Public keys imported for verification, by kid, for the life of the process: a kid is the key's
 * thumbprint, so one kid is always the same key. Only kids in the published set are looked up
 * here (findPublicKey), and entries of kids no longer published are dropped when it is reloaded.
 */
const importedPublicKeys = new Map<string, KeyObject>();

async function publicJwkOf(privatePem: string): Promise<{ kid: string; jwk: JWK }> {
  const privateKey = await importPKCS8(privatePem, ALG, { extractable: true });
  const full = await exportJWK(privateKey);
  const { d: _private, ...publicPart } = full;
  const kid = await calculateJwkThumbprint(publicPart);
  return { kid, jwk: { ...publicPart, kid, alg: ALG, use: "sig" } };
}

async function storeKey(tx: Prisma.TransactionClient, privatePem: string): Promise<string> {
  const { kid, jwk } = await publicJwkOf(privatePem);
  await tx.signingKey.upsert({
    where: { id: kid },
    create: { id: kid, algorithm: ALG, publicJwk: jwk as Prisma.InputJsonValue, privateKeyEncrypted: encrypt(privatePem), status: "active" },
    update: { status: "active", retiredAt: null },
  });
  await tx.signingKey.updateMany({ where: { status: "active", id: { not: kid } }, data: { status: "retiring", retiredAt: new Date() } });
  return kid;
}

async function newPrivatePem(): Promise<string> {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  return exportPKCS8(privateKey);
}

/** Processes that point at another database (benchmarks, one after another) forget the keys of the last. */
export function resetSigningKeyCacheForTests(): void {
  activeCache = undefined;
  verifyCache = undefined;
  importedPublicKeys.clear();
}

/** The key new tokens are signed with; created (or taken from configuration) on first use. */
export async function getActiveSigningKey(): Promise<ActiveKey> {
  if (activeCache && Date.now() - activeCache.at < CACHE_MS) return activeCache.key;
  // One load at a time: a cold instance that gets a burst of requests would otherwise open a
  // transaction for each (each waiting on the advisory lock) and run its pool dry.
  activeLoading ??= loadActiveSigningKey().finally(() => (activeLoading = undefined));
  return activeLoading;
}

async function loadActiveSigningKey(): Promise<ActiveKey> {
  const configured = env().OAUTH_SIGNING_KEY?.replace(/\\n/g, "\n");
  const row = await db.$transaction(async (tx) => {
    // One process creates the key; the others wait for it here and read it.
    await lockSigningKeys(tx);
    if (configured) {
      const { kid } = await publicJwkOf(configured);
      const current = await tx.signingKey.findUnique({ where: { id: kid } });
      if (current?.status !== "active") await storeKey(tx, configured);
      return tx.signingKey.findUniqueOrThrow({ where: { id: kid } });
    }
    const active = await tx.signingKey.findFirst({ where: { status: "active" }, orderBy: { createdAt: "desc" } });
    if (active) return active;
    const kid = await storeKey(tx, await newPrivatePem());
    return tx.signingKey.findUniqueOrThrow({ where: { id: kid } });
  });
  const privateKey = createPrivateKey(decrypt(row.privateKeyEncrypted));
  const key = { kid: row.id, alg: row.algorithm, privateKey };
  activeCache = { key, at: Date.now() };
  return key;
}

/** Makes a new active key; the previous one stays verifiable (retiring) until its tokens expire. */
export async function rotateSigningKey(): Promise<string> {
  const pem = await newPrivatePem();
  const kid = await db.$transaction(async (tx) => {
    await lockSigningKeys(tx);
    return storeKey(tx, pem);
  });
  activeCache = undefined;
  verifyCache = undefined;
  return kid;
}

/** Retiring keys older than the longest token lifetime are no longer published. */
export async function retireExpiredSigningKeys(maxTokenLifetimeSeconds = 3600): Promise<number> {
  const before = new Date(Date.now() - maxTokenLifetimeSeconds * 1000 - 5 * 60_000);
  const { count } = await db.signingKey.updateMany({ where: { status: "retiring", retiredAt: { lt: before } }, data: { status: "retired" } });
  verifyCache = undefined;
  return count;
}

/** Public keys of every active and retiring key: the JWKS (`/.well-known/jwks.json`). */
export async function listPublicKeys({ fresh = false }: { fresh?: boolean } = {}): Promise<JWK[]> {
  if (!fresh && verifyCache && Date.now() - verifyCache.at < CACHE_MS) return verifyCache.keys;
  // A load already under way is fresh enough for a `fresh` caller too (it started moments ago).
  keysLoading ??= loadPublicKeys().finally(() => (keysLoading = undefined));
  return keysLoading;
}

async function loadPublicKeys(): Promise<JWK[]> {
  await getActiveSigningKey();
  const rows = await db.signingKey.findMany({ where: { status: { in: ["active", "retiring"] } }, orderBy: { createdAt: "desc" } });
  const keys = rows.map((r) => r.publicJwk as JWK);
  verifyCache = { keys, at: Date.now() };
  const published = new Set(keys.map((k) => k.kid));
  for (const kid of importedPublicKeys.keys()) if (!published.has(kid)) importedPublicKeys.delete(kid);
  return keys;
}

/**
 * The public key with this kid (imported once per process), refreshing the key list once for a
 * kid it has not seen. A key no longer active or retiring is not in the list and is refused.
 */
export async function findPublicKey(kid: string): Promise<KeyObject | null> {
  const imported = importedPublicKeys.get(kid);
  // Imported means published when the list was last loaded; still published unless it was
  // reloaded since (loadPublicKeys drops the kids it no longer lists) or has gone stale.
  if (imported && verifyCache && Date.now() - verifyCache.at < CACHE_MS) return imported;
  let jwk = (await listPublicKeys()).find((k) => k.kid === kid);
  jwk ??= (await listPublicKeys({ fresh: true })).find((k) => k.kid === kid);
  if (!jwk) return null;
  let key = importedPublicKeys.get(kid);
  if (!key) {
    // A node:crypto KeyObject, as access-token.ts verifies with node:crypto; imported once per kid.
    key = createPublicKey({ key: jwk as NodeJsonWebKey, format: "jwk" });
    importedPublicKeys.set(kid, key);
  }
  return key;
}

/** The advisory lock key of the signing key set. */
const SIGNING_KEYS_LOCK = 727001;

/** Serialises the changes of the signing key set (a transaction-scoped advisory lock). */
async function lockSigningKeys(tx: Tx): Promise<void> {
  await execute(
    sql.selectNoFrom((eb) => eb.fn("pg_advisory_xact_lock", [eb.lit(SIGNING_KEYS_LOCK)]).as("locked")),
    { tx },
  );
}
