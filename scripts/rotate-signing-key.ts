/**
 * `npm run oauth:rotate-signing-key`: a new active key for signing access tokens. The previous
 * key stays in the JWKS as `retiring`, so the tokens it signed verify until they expire; the
 * hourly job `signing-keys-retire` then unpublishes it. Run with the server's environment
 * (DATABASE_URL, APP_ENCRYPTION_KEY). With OAUTH_SIGNING_KEY set the key is the configured one:
 * rotate by setting the new key there and restarting (the old one retires the same way).
 */
import { pathToFileURL } from "node:url";
import { env } from "@/lib/env";
import { rotateSigningKey } from "@/lib/oauth/signing-keys";

/** Rotates, and says what happened; the exit code (0 rotated, 2 refused). */
export async function rotateSigningKeyCommand(out: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<number> {
  if (env().OAUTH_SIGNING_KEY) {
    out("OAUTH_SIGNING_KEY is set, so the signing key is the configured one: set the new key there and restart the servers.");
    return 2;
  }
  const kid = await rotateSigningKey();
  out(`New signing key ${kid}. The previous key verifies its tokens until they expire; signing-keys-retire then unpublishes it.`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  rotateSigningKeyCommand()
    .then((code) => process.exit(code))
    .catch((e: unknown) => {
      process.stderr.write(`Rotation failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
