import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

// The layers (docs/architecture.md): app -> lib/api | lib/web -> lib/<domain> -> lib/db.
// inngest/ orchestrates lib/. Imports against these directions fail the lint.
const forbid = (message, ...groups) => ({ group: groups, message });

const API_LAYER = "The domain does not depend on the HTTP API layer: move the code to lib/api or pass what it needs in.";
const JOB_ENGINE = forbid(
  "The domain does not import the job engine: lib/events receives a sender (inngest/ wires it).",
  "inngest",
  "inngest/*",
  "@/inngest/*",
  "**/inngest/*",
);
const DOMAIN_MUST_NOT = [
  forbid(API_LAYER, "@/lib/api", "@/lib/api/*", "**/lib/api", "**/lib/api/*"),
  { regex: "^(\\.\\./)+api(/|$)", message: API_LAYER },
  forbid("The domain does not depend on routes or pages (app/).", "@/app/*", "**/app/*"),
  JOB_ENGINE,
  forbid("The domain does not import React components.", "@/components/*"),
];

const APP_MUST_NOT = [
  forbid("Pages, actions and routes do not read the database: call a lib/ domain function.", "@/lib/db", "@/lib/generated/prisma/client", "**/lib/db"),
];
// Components get the server actions they call as props from the page or layout (docs/architecture.md).
const COMPONENTS_MUST_NOT = [
  ...APP_MUST_NOT,
  forbid("Components do not import app/: the page or layout passes the server action in as a prop.", "@/app/*", "**/app/*"),
];

// One way to the database (docs/database.md): Prisma's client, and the typed builder of lib/sql.ts
// (tables and columns generated from prisma/schema.prisma) for what Prisma cannot express. No SQL
// text with hand-written row types in lib/: lib/db.ts sends, lib/sql.ts builds.
const RAW_SQL =
  "No SQL text with hand-written row types: build the statement with lib/sql.ts (types generated from prisma/schema.prisma) or use Prisma's client.";
const SQL_LAYER = ["lib/db.ts", "lib/sql.ts"];
export const RAW_SQL_RULES = [
  { selector: "MemberExpression[property.name=/^\\$(queryRaw|executeRaw)(Unsafe)?$/]", message: RAW_SQL },
  { selector: "MemberExpression[object.name='Prisma'][property.name=/^(sql|raw|join)$/]", message: RAW_SQL },
  { selector: "ImportDeclaration[source.value=/(^@\\/lib\\/db$|\\/db$)/] > ImportSpecifier[imported.name='query']", message: RAW_SQL },
  { selector: "ImportDeclaration[source.value='kysely'] > ImportSpecifier[imported.name='sql']", message: RAW_SQL },
];
// Served by the API dispatcher (lib/api/dispatch.ts): the application server calls these route
// handlers itself, outside Next.js's request scope, in development as in production. Next.js's
// request-context APIs would fail or differ there; a handler reads what it needs from its Request
// and answers with a Response. The files: the routes of app/api/route-table.ts and all of lib/
// and inngest/ they can reach, except the web's own request layer (lib/auth: Auth.js sessions;
// lib/web: pages and server actions), which the API does not use.
const REQUEST_CONTEXT =
  "Modules the API dispatcher serves run outside Next.js's request scope: read headers and cookies from the Request, answer with the Response (docs/architecture.md).";
const REQUEST_CONTEXT_PATHS = [
  { name: "next/headers", message: REQUEST_CONTEXT },
  { name: "next/server", importNames: ["after", "connection"], message: REQUEST_CONTEXT },
];
const DISPATCHED_APP = [
  "app/api/v1/**/*.{ts,tsx}",
  "app/api/inngest/**/*.{ts,tsx}",
  "app/api/dispatcher/**/*.{ts,tsx}",
  "app/api/route-table.ts",
  "app/oauth/token/**/*.{ts,tsx}",
  "app/oauth/revoke/**/*.{ts,tsx}",
];
const WEB_REQUEST_LAYER = ["lib/auth/**", "lib/web/**"];
const DYNAMIC_REQUEST_CONTEXT = { selector: "ImportExpression[source.value='next/headers']", message: REQUEST_CONTEXT };

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  {
    rules: {
      // `_name` marks a value taken apart on purpose (rest omission, positional arguments).
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
    },
  },
  globalIgnores([".next/**", "out/**", "build/**", "dist/**", "next-env.d.ts", "lib/generated/**", ".data/**", "test-results/**", "integrations/**"]),
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["lib/api/**", ...WEB_REQUEST_LAYER],
    rules: { "no-restricted-imports": ["error", { patterns: DOMAIN_MUST_NOT, paths: REQUEST_CONTEXT_PATHS }] },
  },
  {
    // The outbox relay's end-to-end tests load the real Inngest client, which registers itself as
    // the sender; nothing else in lib/, tests included, may reach the job engine.
    files: ["lib/events/*.int.test.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: DOMAIN_MUST_NOT.filter((p) => p !== JOB_ENGINE), paths: REQUEST_CONTEXT_PATHS }] },
  },
  {
    files: WEB_REQUEST_LAYER.map((dir) => `${dir}/*.{ts,tsx}`),
    rules: { "no-restricted-imports": ["error", { patterns: DOMAIN_MUST_NOT }] },
  },
  {
    files: ["lib/api/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: DOMAIN_MUST_NOT.slice(1), paths: REQUEST_CONTEXT_PATHS }] },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    // Tests and their helpers set up rows directly.
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/test-support/**"],
    rules: { "no-restricted-imports": ["error", { patterns: APP_MUST_NOT }] },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: COMPONENTS_MUST_NOT }] },
  },
  {
    files: DISPATCHED_APP,
    ignores: ["**/*.test.ts", "**/*.test.tsx", "**/test-support/**"],
    rules: { "no-restricted-imports": ["error", { patterns: APP_MUST_NOT, paths: REQUEST_CONTEXT_PATHS }] },
  },
  {
    files: ["inngest/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { paths: REQUEST_CONTEXT_PATHS }] },
  },
  {
    // The same, for a dynamic import().
    files: [...DISPATCHED_APP, "lib/**/*.{ts,tsx}", "inngest/**/*.{ts,tsx}"],
    ignores: WEB_REQUEST_LAYER,
    rules: { "no-restricted-syntax": ["error", DYNAMIC_REQUEST_CONTEXT] },
  },
  // After the block above: no-restricted-syntax of a later block replaces an earlier one's, so the
  // SQL rules carry the dynamic-import rule where both apply.
  {
    files: ["lib/**/*.{ts,tsx}"],
    ignores: [...SQL_LAYER, ...WEB_REQUEST_LAYER, "**/*.test.ts", "**/*.test.tsx", "**/test-support/**"],
    rules: { "no-restricted-syntax": ["error", ...RAW_SQL_RULES, DYNAMIC_REQUEST_CONTEXT] },
  },
  {
    files: WEB_REQUEST_LAYER,
    ignores: [...SQL_LAYER, "**/*.test.ts", "**/*.test.tsx", "**/test-support/**"],
    rules: { "no-restricted-syntax": ["error", ...RAW_SQL_RULES] },
  },
]);
