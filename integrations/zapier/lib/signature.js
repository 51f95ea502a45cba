'use strict';

const crypto = require('crypto');

// Deliveries are signed: X-Webhook-Signature is the lowercase hex HMAC-SHA256 of the raw body,
// keyed with the webhook's secret (spec section 6). Zapier hands hooks over with the headers
// renamed `Http-X-...`; both spellings are read, case-insensitively.

const header = (headers, name) => {
  const wanted = [name.toLowerCase(), `http-${name.toLowerCase()}`];
  const key = Object.keys(headers || {}).find((k) => wanted.includes(k.toLowerCase()));
  const value = key === undefined ? undefined : headers[key];
  return Array.isArray(value) ? value[0] : value;
};

const sign = (secret, rawBody) => crypto.createHmac('sha256', secret).update(rawBody, 'utf8').digest('hex');

/** Whether the delivery's signature matches its raw body, compared in constant time. */
const isSignedBy = (secret, rawBody, signature) => {
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/.test(signature)) return false;
  return crypto.timingSafeEqual(Buffer.from(sign(secret, rawBody), 'hex'), Buffer.from(signature, 'hex'));
};

module.exports = { header, sign, isSignedBy };
