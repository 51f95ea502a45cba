'use strict';

const { listAll } = require('../lib/api');
const { portalOutput, portalSample } = require('../lib/fields');

const findPortalByExternalId = {
  key: 'find_portal_by_external_id',
  noun: 'Portal',
  display: {
    label: 'Find Portal by External System ID',
    description: 'Finds the portal that carries an ID from another system (e.g. your CRM’s client number).',
  },
  operation: {
    inputFields: [
      { key: 'external_system', label: 'External System', required: true, helpText: 'The system’s name as stored on portals, e.g. crm (any capitalization).' },
      { key: 'external_id', label: 'External ID', required: true, helpText: 'The ID in that system (matched exactly).' },
    ],
    // The spec's lookup: GET /portals?externalSystem=&externalId= (one portal at most per pair).
    perform: (z, bundle) =>
      listAll(z, '/portals', { externalSystem: bundle.inputData.external_system, externalId: bundle.inputData.external_id }),
    sample: portalSample,
    outputFields: portalOutput,
  },
};

const findPortalByName = {
  key: 'find_portal_by_name',
  noun: 'Portal',
  display: {
    label: 'Find Portal by Name',
    description: 'Finds a portal by its exact name (ignoring capitalization and surrounding spaces).',
  },
  operation: {
    inputFields: [
      { key: 'name', label: 'Name', required: true, helpText: 'The portal’s exact name (capitalization and surrounding spaces are ignored).' },
      {
        key: 'include_archived',
        label: 'Include Archived Portals',
        type: 'boolean',
        default: 'false',
        required: false,
        helpText: 'Yes also finds archived portals (active ones come first).',
      },
    ],
    perform: async (z, bundle) => {
      const wanted = String(bundle.inputData.name).trim().toLowerCase();
      const withArchived = bundle.inputData.include_archived === true || bundle.inputData.include_archived === 'true';
      const matches = (await listAll(z, '/portals')).filter(
        (p) => p.name.trim().toLowerCase() === wanted && (withArchived || !p.archived),
      );
      // Active before archived, then the most recently active first: the first result is used.
      const activity = (p) => p.last_activity_at || p.created_at;
      return matches.sort((a, b) => Number(a.archived) - Number(b.archived) || activity(b).localeCompare(activity(a)));
    },
    sample: portalSample,
    outputFields: portalOutput,
  },
};

module.exports = { findPortalByExternalId, findPortalByName };
