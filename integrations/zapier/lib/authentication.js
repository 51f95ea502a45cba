'use strict';

// OAuth 2.0 authorization code with refresh, against the service's own authorization server:
// authorize on {app_url}, token on {base_url}. Client id and secret come from the app's
// environment (`zapier env:set`), the client registered in the service's API settings page.

const { SCOPES, appUrl, apiUrl, v1, errorBody } = require('./api');

const clientCredentials = () => {
  const { CLIENT_ID, CLIENT_SECRET } = process.env;
  if (!CLIENT_ID || !CLIENT_SECRET) {
    throw new Error(
      'CLIENT_ID and CLIENT_SECRET are not set: register the app in Client Portals (Settings → API settings) and run `zapier env:set 1.0.1 CLIENT_ID=... CLIENT_SECRET=...`',
    );
  }
  return { client_id: CLIENT_ID, client_secret: CLIENT_SECRET };
};

const authorizeUrl = (z, bundle) =>
  `${appUrl()}/oauth/authorize?${new URLSearchParams({
    response_type: 'code',
    client_id: clientCredentials().client_id,
    redirect_uri: bundle.inputData.redirect_uri,
    state: bundle.inputData.state,
    scope: SCOPES.join(' '),
  })}`;

/**
 * One token request. The platform's autoRefresh turns any 401 into a RefreshAuthError before our
 * own error handling runs, so the token endpoint's answers are read with skipThrowForStatus and
 * explained here: a refused client (401 invalid_client) is a setup problem of the app, a refused
 * grant (400 invalid_grant: expired, revoked or replayed) means the user must reconnect.
 */
const tokenRequest = async (z, body) => {
  const response = await z.request({
    url: `${apiUrl()}/oauth/token`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: { ...body, ...clientCredentials() },
    skipThrowForStatus: true,
  }).catch((error) => {
    if (error && error.name === 'RefreshAuthError') {
      throw new z.errors.Error(
        'Client Portals refused this app’s client id or secret (invalid_client): check CLIENT_ID and CLIENT_SECRET.',
        'invalid_client',
        401,
      );
    }
    throw error;
  });
  if (response.status === 200) {
    const tokens = response.data;
    return { access_token: tokens.access_token, refresh_token: tokens.refresh_token, scope: tokens.scope };
  }
  const error = errorBody(response) || { error: `http_${response.status}`, error_description: `HTTP ${response.status}` };
  if (body.grant_type === 'refresh_token' && error.error === 'invalid_grant') {
    throw new z.errors.ExpiredAuthError(
      `Client Portals no longer accepts this connection (${error.error_description}): reconnect it.`,
    );
  }
  throw new z.errors.Error(`Client Portals: ${error.error_description} (${error.error})`, error.error, response.status);
};

const getAccessToken = (z, bundle) =>
  tokenRequest(z, {
    grant_type: 'authorization_code',
    code: bundle.inputData.code,
    redirect_uri: bundle.inputData.redirect_uri,
  });

const refreshAccessToken = (z, bundle) =>
  tokenRequest(z, { grant_type: 'refresh_token', refresh_token: bundle.authData.refresh_token });

/** The connection test: who this token acts for, and in which organization. */
const test = async (z) => (await z.request({ url: v1('/me') })).data;

/** "Avery Admin (admin@demo.test) · Demo Accounting LLP": bundle.inputData is the test's result. */
const connectionLabel = (z, bundle) => {
  const me = bundle.inputData || {};
  const who = me.user_name && me.user_email ? `${me.user_name} (${me.user_email})` : me.user_email || me.user_name || me.user_id;
  return me.org_name ? `${who} · ${me.org_name}` : String(who);
};

/** The bearer token on API calls only: the token endpoint authenticates the client, not the user. */
const includeBearerToken = (request, z, bundle) => {
  const toApi = String(request.url).startsWith(`${apiUrl()}/api/`);
  if (toApi && bundle.authData && bundle.authData.access_token && !request.headers.Authorization) {
    request.headers.Authorization = `Bearer ${bundle.authData.access_token}`;
  }
  return request;
};

module.exports = {
  config: {
    type: 'oauth2',
    oauth2Config: {
      authorizeUrl,
      getAccessToken,
      refreshAccessToken,
      autoRefresh: true,
      scope: SCOPES.join(' '),
    },
    fields: [],
    test,
    connectionLabel,
  },
  includeBearerToken,
};
