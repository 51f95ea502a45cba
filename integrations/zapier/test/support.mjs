import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

import zapier from 'zapier-platform-core';
import { afterAll, beforeAll } from 'vitest';

import App from '../index.js';
import { REDIRECT_URI, consent } from './browser.mjs';

export { App };
export const appTester = zapier.createAppTester(App);

/** A connection made as Zapier makes it: authorize URL, consent in the browser, code exchange. */
export async function connect(options = {}) {
  const state = randomBytes(12).toString('base64url');
  const authorizeUrl = await appTester(App.authentication.oauth2Config.authorizeUrl, {
    inputData: { state, redirect_uri: REDIRECT_URI },
  });
  const returned = await consent(authorizeUrl, options);
  if (returned.get('state') !== state) throw new Error(`the state came back as ${returned.get('state')}, not ${state}`);
  const authData = await appTester(App.authentication.oauth2Config.getAccessToken, {
    inputData: { code: returned.get('code'), state, redirect_uri: REDIRECT_URI },
  });
  return { authData, authorizeUrl, returned };
}

/**
 * What a failed step shows the Zapier user: the platform's errors carry their message, code and
 * status as JSON in `message`.
 */
export async function failure(promise) {
  try {
    await promise;
  } catch (error) {
    try {
      return { name: error.name, ...JSON.parse(error.message) };
    } catch {
      return { name: error.name, message: error.message };
    }
  }
  throw new Error('the step succeeded; it was expected to fail');
}

/** The API as the test sees it (to check what the app did), with the connection's token. */
export async function api(authData, method, path, body) {
  const response = await fetch(`${process.env.APP_URL}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${authData.access_token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** The headers of a hook as Zapier hands them to perform: `Http-X-Webhook-Signature` and so on. */
export const zapierHeaders = (headers) =>
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      `Http-${name.split('-').map((part) => part.charAt(0).toUpperCase() + part.slice(1)).join('-')}`,
      value,
    ]),
  );

/**
 * An HTTP server on loopback for the file's tests, started before them and closed after: it
 * records every POST (raw body and headers) in `received`, serves `files[path]` to GETs and HEADs
 * (`{ contentType, body, disposition? }`) and records those in `fetched`.
 */
export function loopbackServer() {
  const state = { url: '', received: [], fetched: [], files: {} };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method === 'POST') {
        state.received.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
        return;
      }
      state.fetched.push({ method: req.method, path: req.url, headers: req.headers });
      const file = state.files[req.url];
      if (!file) {
        res.writeHead(404).end('not found');
        return;
      }
      const headers = { 'Content-Type': file.contentType, 'Content-Length': file.body.length };
      if (file.disposition) headers['Content-Disposition'] = file.disposition;
      res.writeHead(200, headers).end(file.body);
    });
  });
  beforeAll(async () => {
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    state.url = `http://127.0.0.1:${server.address().port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(() => resolve())));
  return state;
}
