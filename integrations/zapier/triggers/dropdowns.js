'use strict';

// Hidden triggers that feed the dynamic dropdowns: portals, templates, workflow states, and the
// open tasks and the guests of the portal chosen in the same step.

const { v1, listAll } = require('../lib/api');
const { portalOutput, portalSample, taskOutput } = require('../lib/fields');

const byName = (a, b) => a.name.localeCompare(b.name);

const dropdown = ({ key, noun, label, perform, sample, outputFields, inputFields = [] }) => ({
  key,
  noun,
  display: { label, description: `Lists ${noun.toLowerCase()}s for dropdowns.`, hidden: true },
  operation: { type: 'polling', inputFields, perform, sample, outputFields },
});

const portalList = dropdown({
  key: 'portal_list',
  noun: 'Portal',
  label: 'Portals',
  // Active portals first, then archived ones (marked), each group by name.
  perform: async (z) => {
    const portals = await listAll(z, '/portals');
    return [...portals.filter((p) => !p.archived).sort(byName), ...portals.filter((p) => p.archived).sort(byName)].map((p) =>
      p.archived ? { ...p, name: `${p.name} (archived)` } : p,
    );
  },
  sample: portalSample,
  outputFields: portalOutput,
});

const templateList = dropdown({
  key: 'template_list',
  noun: 'Template',
  label: 'Portal Templates',
  perform: async (z) => (await listAll(z, '/portals', { templatesOnly: true })).filter((p) => !p.archived).sort(byName),
  sample: { ...portalSample, name: 'Year-end template', is_template: true },
  outputFields: portalOutput,
});

const workflowStateList = dropdown({
  key: 'workflow_state_list',
  noun: 'Workflow State',
  label: 'Workflow States',
  // The organization's configured order (not alphabetical): that is how the firm thinks of them.
  perform: async (z) => (await z.request({ url: v1('/workflow-states') })).data,
  sample: { id: '3c1a9a52-3b9e-4c0e-9b8e-0d7f1e2a3b4c', name: 'In progress' },
  outputFields: [
    { key: 'id', label: 'Workflow State ID' },
    { key: 'name', label: 'Name' },
  ],
});

const taskList = dropdown({
  key: 'task_list',
  noun: 'Task',
  label: 'Open Tasks',
  inputFields: [{ key: 'portal_id', label: 'Portal', dynamic: 'portal_list.id.name', required: false, helpText: 'The portal whose open tasks to list.' }],
  perform: async (z, bundle) => {
    if (!bundle.inputData.portal_id) return [];
    const tasks = await listAll(z, `/portals/${encodeURIComponent(bundle.inputData.portal_id)}/tasks`);
    return tasks.filter((t) => t.status === 'Open');
  },
  sample: {
    id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
    vault_id: '6f1c2d7e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
    title: 'Upload your 2026 bank statements',
    description: '',
    action_type: 'File Request',
    status: 'Open',
    due_date: null,
    send_reminder: false,
    completed_at: null,
    created_at: '2026-11-01T09:00:00.000Z',
  },
  outputFields: taskOutput,
});

const guestSample = {
  id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
  user_id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
  email: 'client@example.com',
  name: 'Jordan Smith',
  state: 'accepted',
  invited_at: '2026-11-01T09:00:00.000Z',
  accepted_at: '2026-11-02T08:30:00.000Z',
  permissions: { view: true, download: true, upload: true, delete_own_uploads: false },
};

/** The portal's guests (GET /portals/{id}/guests, `portal:read`), by email; `id` is the user id. */
const guestList = dropdown({
  key: 'guest_list',
  noun: 'Guest',
  label: 'Guests',
  inputFields: [{ key: 'portal_id', label: 'Portal', dynamic: 'portal_list.id.name', required: false, helpText: 'The portal whose guests to list.' }],
  perform: async (z, bundle) => {
    if (!bundle.inputData.portal_id) return [];
    const guests = await listAll(z, `/portals/${encodeURIComponent(bundle.inputData.portal_id)}/guests`);
    return guests.map((g) => ({ id: g.user_id, ...g })).sort((a, b) => a.email.localeCompare(b.email));
  },
  sample: guestSample,
  outputFields: [
    { key: 'id', label: 'User ID' },
    { key: 'user_id', label: 'User ID (for assigning tasks)' },
    { key: 'email', label: 'Email' },
    { key: 'name', label: 'Name' },
    { key: 'state', label: 'State (invited or accepted)' },
    { key: 'invited_at', label: 'Invited At', type: 'datetime' },
    { key: 'accepted_at', label: 'Accepted At', type: 'datetime' },
    { key: 'permissions', label: 'Permissions', sample: guestSample.permissions },
  ],
});

module.exports = { dropdownTriggers: [portalList, templateList, workflowStateList, taskList, guestList] };
