import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

export interface DevSecrets {
  AUTH_SECRET: string;
  APP_ENCRYPTION_KEY: string;
}

/**
 * Secrets for the embedded development setup, made once and kept under .data/ so that sessions,
 * webhook secrets and signing keys survive a restart. Never used when the variables are set.
 */
export function loadDevSecrets(file: string): DevSecrets {
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as DevSecrets;
  const secrets: DevSecrets = {
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    APP_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
  };
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
