/**
 * `npm run client:generate`: writes packages/client/src/schema.d.ts from the OpenAPI document
 * (scripts/lib/client-types.ts). Run it after changing an operation or a schema of the API.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CLIENT_TYPES_FILE, clientTypesSource } from "./lib/client-types.ts";

const root = fileURLToPath(new URL("..", import.meta.url));
writeFileSync(path.join(root, CLIENT_TYPES_FILE), await clientTypesSource());
process.stdout.write(`wrote ${CLIENT_TYPES_FILE}\n`);
