import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { registerClient } from './browser.mjs';

// One Client Portals server for the whole run: the repository's e2e server (the production build
// from `next build`, fresh database and S3, the demo organization seeded), with outbound requests
// allowed to loopback so that webhooks and file_url downloads reach this test's own servers.
// Then the Zapier app is registered as a client, as an administrator does it.

const repositoryRoot = fileURLToPath(new URL('../../..', import.meta.url));
const SCOPES = ['portal:read', 'portal:write', 'file:list', 'file:upload', 'task:read', 'task:write', 'guest:invite', 'webhook:manage'];

// Up: the app answers, and the local Inngest executor has synced it (events relayed before that
// would start no function, so no webhook delivery).
async function waitUntilUp(url, server, output, synced) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the Client Portals server exited (${server.exitCode}):\n${output.join('')}`);
    try {
      if ((await fetch(`${url}/sign-in`)).ok && synced()) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the Client Portals server did not answer at ${url}, or its Inngest executor did not sync it, within 180 s:\n${output.join('')}`);
}

export default async function setup({ provide }) {
  // The e2e tier's port unless told otherwise: the tiers run one after the other.
  const port = Number(process.env.ZAPIER_E2E_PORT || process.env.E2E_PORT || 3100);
  const appUrl = `http://localhost:${port}`;
  const output = [];
  let synced = false;
  const server = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/e2e-server.ts'], {
    cwd: repositoryRoot,
    env: { ...process.env, E2E_PORT: String(port), OUTBOUND_ALLOW_PRIVATE: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk) => {
    output.push(chunk.toString());
    // scripts/test/inngest-executor.ts logs `synced <app> at <url>: <n> functions`.
    if (/inngest: synced \S+ at /.test(chunk.toString())) synced = true;
    if (output.length > 400) output.shift();
    if (process.env.ZAPIER_TEST_SERVER_LOG) process.stderr.write(chunk);
  };
  server.stdout.on('data', keep);
  server.stderr.on('data', keep);
  const stop = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await waitUntilUp(appUrl, server, output, () => synced);
    provide('appUrl', appUrl);
    provide('scopes', SCOPES);
    provide('client', await registerClient(appUrl, { name: 'Zapier', scopes: SCOPES }));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
