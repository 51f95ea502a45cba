'use strict';

const { v1, listValues } = require('../lib/api');
const { portalField } = require('../lib/fields');

const inviteGuests = {
  key: 'invite_guests',
  noun: 'Guest',
  display: {
    label: 'Invite Guests',
    description: 'Invites one or more guests (clients) to a portal; each gets an invitation email.',
  },
  operation: {
    inputFields: [
      portalField(),
      { key: 'emails', label: 'Email Addresses', list: true, required: true, helpText: 'Who to invite (at most 100); each gets an invitation email.' },
      { key: 'names', label: 'Names', list: true, required: false, helpText: 'In the same order as the email addresses (optional per address).' },
    ],
    perform: async (z, bundle) => {
      const input = bundle.inputData;
      const emails = listValues(input.emails);
      if (emails.length === 0) throw new z.errors.Error('Email Addresses: give at least one address.', 'invalid_request', 400);
      // Keep the names aligned with the addresses: an empty name stays in its place.
      const names = Array.isArray(input.names) ? input.names.map((n) => String(n ?? '').trim()) : listValues(input.names);
      const body = names.some((n) => n !== '') ? { emails, names } : { emails };
      const url = v1(`/portals/${encodeURIComponent(input.portal_id)}/guests`);
      const result = (await z.request({ url, method: 'POST', body })).data;
      return { ...result, portal_id: input.portal_id, emails: emails.map((e) => e.toLowerCase()) };
    },
    sample: {
      success: true,
      invited_count: 1,
      message: 'Invited 1 guest',
      user_id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
      guests: [{ user_id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e', email: 'client@example.com' }],
      portal_id: '6f1c2d7e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
      emails: ['client@example.com'],
    },
    outputFields: [
      { key: 'success', label: 'Success', type: 'boolean' },
      { key: 'invited_count', label: 'Guests Invited', type: 'integer' },
      { key: 'message', label: 'Message' },
      { key: 'user_id', label: 'Guest User ID (the first address; for assigning tasks)' },
      { key: 'guests[]user_id', label: 'Guest User IDs' },
      { key: 'guests[]email', label: 'Guest Emails' },
      { key: 'portal_id', label: 'Portal ID' },
      { key: 'emails', label: 'Email Addresses', list: true },
    ],
  },
};

module.exports = { inviteGuests };
