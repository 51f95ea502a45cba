'use strict';

// Client Portals for Zapier (version in package.json) (the companion integration named in section 9 of the
// API specification). Everything goes through the public contract: /api/v1 with OAuth 2.0, and
// signed webhooks. See README.md for registering and pushing it.

const { version: platformVersion } = require('zapier-platform-core');

const { version } = require('./package.json');
const authentication = require('./lib/authentication');
const { explainErrors } = require('./lib/api');
const { hookTriggers } = require('./triggers/hooks');
const { dropdownTriggers } = require('./triggers/dropdowns');
const { createPortal, updatePortal } = require('./creates/portals');
const { createTask, completeTask, updateTask } = require('./creates/tasks');
const { inviteGuests } = require('./creates/guests');
const { uploadFile } = require('./creates/files');
const { findPortalByExternalId, findPortalByName } = require('./searches/portals');
const { findTask, findFile } = require('./searches/tasks-files');

const byKey = (operations) => Object.fromEntries(operations.map((operation) => [operation.key, operation]));

module.exports = {
  version,
  platformVersion,
  authentication: authentication.config,
  beforeRequest: [authentication.includeBearerToken],
  afterResponse: [explainErrors],
  triggers: byKey([...hookTriggers, ...dropdownTriggers]),
  creates: byKey([createPortal, updatePortal, createTask, updateTask, completeTask, inviteGuests, uploadFile]),
  searches: byKey([findPortalByExternalId, findPortalByName, findTask, findFile]),
  searchOrCreates: {
    find_portal_by_name: {
      key: 'find_portal_by_name',
      display: {
        label: 'Find or Create Portal',
        description: 'Finds a portal by name, or creates it when there is none.',
      },
      search: 'find_portal_by_name',
      create: 'create_portal',
    },
  },
};
