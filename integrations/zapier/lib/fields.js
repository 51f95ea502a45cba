'use strict';

// Input and output fields more than one operation declares.

const portalField = (options = {}) => ({
  key: 'portal_id',
  label: 'Portal',
  type: 'string',
  required: true,
  dynamic: 'portal_list.id.name',
  helpText: 'The portal (choose one, or map a portal id).',
  ...options,
});

const commonEventOutput = [
  { key: 'id', label: 'Event ID' },
  { key: 'event', label: 'Event' },
  { key: 'event_id', label: 'Event ID (shared by all deliveries)' },
  { key: 'org_id', label: 'Organization ID' },
  { key: 'portal_id', label: 'Portal ID' },
  { key: 'portal_name', label: 'Portal Name' },
  // An object (system name → ID): no scalar type, a sample object instead (Zapier's check D024).
  { key: 'external_system_ids', label: 'External System IDs', sample: { crm: 'ACME-001' } },
  { key: 'timestamp', label: 'Delivered At', type: 'datetime' },
  { key: 'occurred_at', label: 'Occurred At', type: 'datetime' },
];

const portalOutput = [
  { key: 'id', label: 'Portal ID' },
  { key: 'name', label: 'Name' },
  { key: 'org_id', label: 'Organization ID' },
  { key: 'tags', label: 'Tags', list: true },
  { key: 'workflowStateId', label: 'Workflow State ID' },
  { key: 'workflowStateName', label: 'Workflow State' },
  { key: 'archived', label: 'Archived', type: 'boolean' },
  { key: 'is_template', label: 'Is Template', type: 'boolean' },
  { key: 'externalSystemIds', label: 'External System IDs', sample: { crm: 'ACME-001' } },
  { key: 'open_task_count', label: 'Open Tasks', type: 'integer' },
  { key: 'done_task_count', label: 'Done Tasks', type: 'integer' },
  { key: 'last_activity_at', label: 'Last Activity At', type: 'datetime' },
  { key: 'web_url', label: 'Portal Link' },
  { key: 'created_at', label: 'Created At', type: 'datetime' },
  { key: 'created_by', label: 'Created By (user ID)' },
  { key: 'partner_link', label: 'Partner Link' },
];

const portalSample = {
  id: '6f1c2d7e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
  name: 'Acme Ltd — 2026 year end',
  org_id: '0b6e4f0a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  tags: ['year-end', 'corporate'],
  workflowStateId: '3c1a9a52-3b9e-4c0e-9b8e-0d7f1e2a3b4c',
  workflowStateName: 'In progress',
  archived: false,
  is_template: false,
  externalSystemIds: { crm: 'ACME-001' },
  partner_link: null,
  open_task_count: 2,
  done_task_count: 1,
  last_activity_at: '2026-11-20T10:15:00.000Z',
  web_url: 'https://portals.example.com/org/0b6e4f0a-1c2d-4e3f-8a9b-0c1d2e3f4a5b/vault/6f1c2d7e-8a4b-4c3d-9e2f-1a2b3c4d5e6f/folder/main',
  created_at: '2026-11-01T09:00:00.000Z',
  created_by: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
};

/** A guest of a portal (GET /portals/{id}/guests): `user_id` is what task assignment takes. */
const guestField = (options = {}) => ({
  key: 'assigned_guest_ids',
  label: 'Assigned Guests',
  list: true,
  required: false,
  dynamic: 'guest_list.user_id.email',
  helpText: 'Guests already invited to this portal (choose them, or map their user IDs).',
  ...options,
});

const taskOutput = [
  { key: 'id', label: 'Task ID' },
  { key: 'vault_id', label: 'Portal ID' },
  { key: 'title', label: 'Title' },
  { key: 'description', label: 'Description' },
  { key: 'action_type', label: 'Action Type' },
  { key: 'status', label: 'Status' },
  { key: 'due_date', label: 'Due Date', type: 'datetime' },
  { key: 'send_reminder', label: 'Send Reminders', type: 'boolean' },
  { key: 'completed_at', label: 'Completed At', type: 'datetime' },
  { key: 'created_at', label: 'Created At', type: 'datetime' },
  { key: 'assignees[]user_id', label: 'Assignee User IDs' },
  { key: 'assignees[]email', label: 'Assignee Emails' },
  { key: 'assignees[]name', label: 'Assignee Names' },
  { key: 'assignees[]type', label: 'Assignee Types (guest or member)' },
  { key: 'attached_file_ids', label: 'Attached File IDs', list: true },
  { key: 'document_file_id', label: 'Document to Sign (file ID)' },
  { key: 'updated_at', label: 'Updated At', type: 'datetime' },
  { key: 'org_id', label: 'Organization ID' },
];

module.exports = { portalField, guestField, commonEventOutput, portalOutput, portalSample, taskOutput };
