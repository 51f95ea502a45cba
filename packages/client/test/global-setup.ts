/**
 * Global setup of the client tier: the production build on fresh services (scripts/e2e-server.ts)
 * on CLIENT_E2E_PORT (default 3163), with outbound requests allowed to loopback so that webhook
 * deliveries reach the tests' receivers. Its environment reaches the test workers (env.ts), so
 * that they can register OAuth clients and issue authorization codes in its database.
 */
import type { TestProject } from "vitest/node";
import { startE2eServer } from "../../../scripts/test/e2e-server-process.ts";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startE2eServer({ port: Number(process.env["CLIENT_E2E_PORT"] ?? 3163), label: "client", env: { OUTBOUND_ALLOW_PRIVATE: "true" } });
  project.provide("client", { env: server.env, baseUrl: server.baseUrl });
  return server.stop;
}
