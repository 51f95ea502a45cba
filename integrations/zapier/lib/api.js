'use strict';

// Where the Client Portals service is, and the few request helpers every operation shares.
// Only the public contract is used: /api/v1 with the connection's bearer token, and /oauth.

const SCOPES = [
  'portal:read',
  'portal:write',
  'file:list',
  'file:upload',
  'task:read',
  'task:write',
  'guest:invite',
  'webhook:manage',
];

const trimSlash = (url) => url.replace(/\/+$/, '');

/** The web application address ({app_url}): the authorize page. Set with `zapier env:set`. */
const appUrl = () => {
  const url = process.env.APP_URL;
  if (!url) {
    throw new Error(
      'APP_URL is not set: run `zapier env:set 1.0.1 APP_URL=https://<your Client Portals address>`',
    );
  }
  return trimSlash(url);
};

/** The API address ({base_url}): /oauth/token and /api/v1. Defaults to APP_URL (decision D1). */
const apiUrl = () => trimSlash(process.env.API_URL || appUrl());

const v1 = (path) => `${apiUrl()}/api/v1${path}`;

/** The error body of the API ({error, error_description}), or undefined when it is not JSON. */
const errorBody = (response) => {
  try {
    const body = JSON.parse(response.content);
    return body && typeof body.error === 'string' ? body : undefined;
  } catch {
    return undefined;
  }
};

/**
 * afterResponse: every API error becomes a message that says what to fix. 401 never gets here
 * for API calls (autoRefresh turns it into a refresh first); 429 is the platform's
 * ThrottledError (it reads Retry-After).
 */
const explainErrors = (response, z) => (response.skipThrowForStatus ? response : throwExplained(response, z));

/** The error of a response of 400 or more, in words that say what to fix; the response otherwise. */
const throwExplained = (response, z) => {
  if (response.status < 400) return response;
  const body = errorBody(response);
  const code = body ? body.error : `http_${response.status}`;
  const description = body && body.error_description ? body.error_description : `HTTP ${response.status}`;
  if (code === 'insufficient_scope') {
    const header = response.getHeader('www-authenticate') || '';
    const scope = (/scope="([^"]+)"/.exec(header) || [])[1];
    throw new z.errors.Error(
      `This connection was not granted ${scope ? `the scope ${scope}` : 'the scope this step needs'}: reconnect Client Portals and approve it on the consent screen.`,
      code,
      response.status,
    );
  }
  if (code === 'api_access_disabled') {
    throw new z.errors.Error(
      'API access is turned off for this organization (it needs an enterprise plan with API access): ask your Client Portals administrator.',
      code,
      response.status,
    );
  }
  throw new z.errors.Error(`Client Portals: ${description}`, code, response.status);
};

/** Every page of a D5 list: `limit` 1000, then the `Link: <...>; rel="next"` URLs. */
const listAll = async (z, path, params = {}, maxPages = 20) => {
  const items = [];
  let request = { url: v1(path), params: { ...params, limit: 1000 } };
  for (let page = 0; page < maxPages && request; page += 1) {
    const response = await z.request(request);
    items.push(...response.data);
    const next = /<([^>]+)>;\s*rel="next"/.exec(response.getHeader('link') || '');
    request = next ? { url: next[1] } : undefined;
  }
  return items;
};

/** Only the fields the user filled: Zapier sends unfilled optional fields as undefined or "". */
const filled = (value) =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

const pickFilled = (object) => Object.fromEntries(Object.entries(object).filter(([, value]) => filled(value)));

/** A list field's values, trimmed, empty ones dropped (Zapier lists arrive as arrays or one string). */
const listValues = (value) =>
  (Array.isArray(value) ? value : filled(value) ? [value] : [])
    .map((item) => String(item).trim())
    .filter((item) => item !== '');

module.exports = { SCOPES, appUrl, apiUrl, v1, errorBody, explainErrors, throwExplained, listAll, filled, pickFilled, listValues };
