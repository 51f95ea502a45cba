import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// The layers (docs/architecture.md): app -> lib/api | lib/web -> lib/<domain> -> lib/db.
// inngest/ orchestrates lib/. Imports against these directions fail the lint.
const forbid = (message, ...groups) => ({ group: groups, message });

const DOMAIN_MUST_NOT = [
  forbid("The domain does not depend on the HTTP API layer: move the code to lib/api or pass what it needs in.", "@/lib/api", "@/lib/api/*", "**/lib/api", "**/lib/api/*"),
  forbid("The domain does not depend on routes or pages (app/).", "@/app/*", "**/app/*"),
  forbid("The domain does not import the job engine: lib/events receives a sender (inngest/ wires it).", "inngest", "inngest/*", "@/inngest/*", "**/inngest/*"),
  forbid("The domain does not import React components.", "@/components/*"),
];

const APP_MUST_NOT = [
  forbid("Pages, actions and routes do not read the database: call a lib/ domain function.", "@/lib/db", "@/lib/generated/prisma/client", "**/lib/db"),
  forbid("Pages and actions do not decide permissions: use lib/access (a Viewer) and the domain's guards.", "@/lib/auth/roles"),
];

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  globalIgnores([".next/**", "out/**", "build/**", "next-env.d.ts", "lib/generated/**", ".data/**", "test-results/**", "integrations/**"]),
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["lib/api/**"],
    rules: { "no-restricted-imports": ["error", { patterns: DOMAIN_MUST_NOT }] },
  },
  {
    files: ["lib/api/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: DOMAIN_MUST_NOT.slice(1) }] },
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    ignores: ["**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-imports": ["error", { patterns: APP_MUST_NOT }] },
  },
]);
