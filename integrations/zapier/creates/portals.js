'use strict';

const { v1, listValues, pickFilled, filled } = require('../lib/api');
const { portalField, portalOutput, portalSample } = require('../lib/fields');

const createPortal = {
  key: 'create_portal',
  noun: 'Portal',
  display: { label: 'Create Portal', description: 'Creates a client portal, optionally from a template.' },
  operation: {
    inputFields: [
      { key: 'name', label: 'Name', required: true, helpText: 'The portal’s name, e.g. the client and the engagement (1-200 characters).' },
      { key: 'tags', label: 'Tags', list: true, required: false, helpText: 'Labels to group and filter portals by (optional).' },
      {
        key: 'template_id',
        label: 'Template',
        dynamic: 'template_list.id.name',
        required: false,
        helpText: 'Copies the template’s folders, tags and workflow state (business or enterprise plan).',
      },
      {
        key: 'is_template',
        label: 'Create as a Template',
        type: 'boolean',
        required: false,
        default: 'false',
        helpText: 'Yes makes a template for new portals instead of a client portal.',
      },
    ],
    perform: async (z, bundle) => {
      const input = bundle.inputData;
      const body = pickFilled({ name: input.name, templateId: input.template_id });
      const tags = listValues(input.tags);
      if (tags.length) body.tags = tags;
      if (input.is_template === true || input.is_template === 'true') body.isTemplate = true;
      return (await z.request({ url: v1('/portals'), method: 'POST', body })).data;
    },
    sample: portalSample,
    outputFields: portalOutput,
  },
};

const updatePortal = {
  key: 'update_portal',
  noun: 'Portal',
  display: {
    label: 'Update Portal',
    description: 'Renames a portal, replaces its tags, moves it to a workflow state, archives or restores it, or sets its external system IDs.',
  },
  operation: {
    inputFields: [
      portalField(),
      { key: 'name', label: 'New Name', required: false, helpText: 'A new name for the portal (leave empty to keep it).' },
      { key: 'tags', label: 'Tags', list: true, required: false, helpText: 'Replaces all tags. Leave empty to keep them.' },
      {
        key: 'workflow_state_id',
        label: 'Workflow State',
        dynamic: 'workflow_state_list.id.name',
        required: false,
        helpText: 'Moves the portal to this state of your workflow (leave empty to keep it).',
      },
      {
        key: 'archived',
        label: 'Archived',
        type: 'string',
        choices: { true: 'Archive', false: 'Restore' },
        required: false,
        helpText: 'Leave empty to keep the portal as it is.',
      },
      {
        key: 'external_system_ids',
        label: 'External System IDs',
        dict: true,
        required: false,
        helpText: 'System name → ID in that system (e.g. crm → ACME-001). Other systems’ IDs are kept.',
      },
      {
        key: 'remove_external_systems',
        label: 'Remove External Systems',
        list: true,
        required: false,
        helpText: 'System names whose ID to remove from the portal.',
      },
    ],
    perform: async (z, bundle) => {
      const input = bundle.inputData;
      const body = pickFilled({ name: input.name });
      const tags = listValues(input.tags);
      if (tags.length) body.tags = tags;
      if (filled(input.archived)) body.archived = input.archived === true || input.archived === 'true';
      if (filled(input.workflow_state_id)) {
        const states = (await z.request({ url: v1('/workflow-states') })).data;
        const state = states.find((s) => s.id === input.workflow_state_id);
        if (!state) {
          throw new z.errors.Error(
            `Workflow State: "${input.workflow_state_id}" is not one of this organization’s workflow states (${states.map((s) => s.name).join(', ')}).`,
            'invalid_request',
            400,
          );
        }
        body.workflowStateId = state.id;
        body.workflowStateName = state.name;
      }
      const externalIds = { ...pickFilled(input.external_system_ids || {}) };
      for (const system of listValues(input.remove_external_systems)) externalIds[system] = null;
      if (Object.keys(externalIds).length) body.externalSystemIds = externalIds;
      if (Object.keys(body).length === 0) {
        throw new z.errors.Error('Nothing to update: fill at least one field besides the portal.', 'invalid_request', 400);
      }
      const url = v1(`/portals/${encodeURIComponent(input.portal_id)}`);
      return (await z.request({ url, method: 'PATCH', body })).data;
    },
    sample: portalSample,
    outputFields: portalOutput,
  },
};

module.exports = { createPortal, updatePortal };
