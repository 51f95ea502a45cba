import { inject } from 'vitest';

// What `zapier env:set` gives the app in production: where the service is, and its client.
const client = inject('client');
process.env.APP_URL = inject('appUrl');
process.env.CLIENT_ID = client.clientId;
process.env.CLIENT_SECRET = client.clientSecret;
