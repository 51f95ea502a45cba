import { describe, expect, inject, it } from 'vitest';

import { REDIRECT_URI } from './browser.mjs';
import { App, api, appTester, connect, failure } from './support.mjs';

const { oauth2Config } = App.authentication;

describe('authentication: OAuth 2.0 through the real consent flow', () => {
  let connection;

  it('sends the user to the consent screen with the client, redirect URI, state and every scope the app uses', async () => {
    connection = await connect();
    const url = new URL(connection.authorizeUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${inject('appUrl')}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(inject('client').clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope').split(' ').sort()).toEqual([...inject('scopes')].sort());
    expect(connection.returned.get('code')).toBeTruthy();
    expect(connection.authData).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String) });
    expect(connection.authData.scope.split(' ').sort()).toEqual([...inject('scopes')].sort());
  });

  it('tests the connection with GET /api/v1/me and labels it with the user and organization', async () => {
    const me = await appTester(App.authentication.test, { authData: connection.authData });
    expect(me).toMatchObject({ user_email: 'admin@demo.test', org_name: 'Demo Accounting LLP', client_id: inject('client').clientId });
    const label = await appTester(App.authentication.connectionLabel, { authData: connection.authData, inputData: me });
    expect(label).toBe('Avery Admin (admin@demo.test) · Demo Accounting LLP');
  });

  it('asks for a refresh when the access token is refused (401), and the refreshed token works', async () => {
    const stale = { ...connection.authData, access_token: 'expired-or-revoked' };
    await expect(appTester(App.triggers.workflow_state_list.operation.perform, { authData: stale, inputData: {} })).rejects.toMatchObject({
      name: 'RefreshAuthError',
    });
    const refreshed = await appTester(oauth2Config.refreshAccessToken, { authData: connection.authData });
    expect(refreshed.access_token).not.toBe(connection.authData.access_token);
    expect(refreshed.refresh_token).not.toBe(connection.authData.refresh_token);
    const states = await appTester(App.triggers.workflow_state_list.operation.perform, { authData: refreshed, inputData: {} });
    expect(states.length).toBeGreaterThan(0);
    expect(states[0]).toEqual({ id: expect.any(String), name: expect.any(String) });
    connection.authData = refreshed;
  });

  it('asks the user to reconnect when the refresh token is no longer accepted', async () => {
    const refused = await failure(
      appTester(oauth2Config.refreshAccessToken, { authData: { ...connection.authData, refresh_token: 'not-a-refresh-token' } }),
    );
    expect(refused).toMatchObject({ name: 'ExpiredAuthError', message: expect.stringMatching(/^Client Portals no longer accepts this connection \(The refresh token is invalid\): reconnect it\./) });
  });

  it('says which setting is wrong when the app’s client secret is refused', async () => {
    const secret = process.env.CLIENT_SECRET;
    process.env.CLIENT_SECRET = 'cps_wrong';
    try {
      expect(await failure(appTester(oauth2Config.refreshAccessToken, { authData: connection.authData }))).toMatchObject({
        message: 'Client Portals refused this app’s client id or secret (invalid_client): check CLIENT_ID and CLIENT_SECRET.',
        code: 'invalid_client',
        status: 401,
      });
    } finally {
      process.env.CLIENT_SECRET = secret;
    }
  });

  it('a scope the user did not grant gives a message that says which one to approve', async () => {
    const targetUrl = 'https://hooks.zapier.com/hooks/standard/1/narrowed/';
    const narrowed = await connect({ untick: ['webhook:manage'] });
    expect(narrowed.authData.scope.split(' ')).not.toContain('webhook:manage');
    const refused = await failure(
      appTester(App.triggers.task_created.operation.performSubscribe, { authData: narrowed.authData, targetUrl, inputData: {} }),
    );
    expect(refused).toMatchObject({
      message: 'This connection was not granted the scope webhook:manage: reconnect Client Portals and approve it on the consent screen.',
      code: 'insufficient_scope',
      status: 403,
    });
    const { body: webhooks } = await api(connection.authData, 'GET', '/webhooks');
    expect(webhooks.filter((w) => w.url === targetUrl)).toEqual([]);
  });
});
