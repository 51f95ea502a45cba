'use strict';

// One instant trigger (REST hook) per subscribable event of spec section 6. Subscribing creates
// a webhook for that one event pointing at Zapier's target URL; unsubscribing deletes it. Every
// delivery's signature is checked against the secret the subscription returned.

const { throwExplained, v1 } = require('../lib/api');
const { commonEventOutput, portalField } = require('../lib/fields');
const { byEvent } = require('../lib/samples');
const { header, isSignedBy } = require('../lib/signature');

const base = {
  event_id: '9d3b2c1a-0f4e-4d5c-8b7a-6e5f4d3c2b1a',
  org_id: '0b6e4f0a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  portal_id: '6f1c2d7e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
  portal_name: 'Acme Ltd — 2026 year end',
  external_system_ids: { crm: 'ACME-001' },
  timestamp: '2026-11-20T10:15:02.000Z',
  occurred_at: '2026-11-20T10:15:00.000Z',
};

const EVENTS = [
  {
    key: 'portal_created',
    event: 'portal.created',
    noun: 'Portal',
    label: 'New Portal',
    description: 'Triggers when a portal is created (in the web application or through the API).',
    portalFilter: false,
    output: [
      { key: 'created_by', label: 'Created By (user ID)' },
      { key: 'tags', label: 'Tags', list: true },
      { key: 'is_template', label: 'Is Template', type: 'boolean' },
    ],
    sample: { created_by: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', tags: ['year-end'], is_template: false },
  },
  {
    key: 'portal_workflow_changed',
    event: 'portal.workflow_changed',
    noun: 'Portal',
    label: 'Portal Workflow State Changed',
    description: 'Triggers when a portal moves to another workflow state.',
    output: [
      { key: 'workflow_state_id', label: 'Workflow State ID' },
      { key: 'workflow_state_name', label: 'Workflow State' },
      { key: 'previous_workflow_state_name', label: 'Previous Workflow State' },
    ],
    sample: {
      workflow_state_id: '3c1a9a52-3b9e-4c0e-9b8e-0d7f1e2a3b4c',
      workflow_state_name: 'In progress',
      previous_workflow_state_name: 'Onboarding',
    },
  },
  {
    key: 'file_uploaded',
    event: 'file.uploaded',
    noun: 'File',
    label: 'New File Uploaded',
    description: 'Triggers when a file is uploaded to a portal.',
    output: [
      { key: 'file_id', label: 'File ID' },
      { key: 'name', label: 'File Name' },
      { key: 'extension', label: 'Extension' },
      { key: 'size', label: 'Size (bytes)', type: 'integer' },
      { key: 'content_type', label: 'Content Type' },
      { key: 'uploaded_by', label: 'Uploaded By (user ID)' },
      { key: 'uploaded_by_email', label: 'Uploaded By Email' },
      { key: 'uploaded_by_name', label: 'Uploaded By Name' },
      { key: 'task_id', label: 'Task ID' },
    ],
    sample: {
      file_id: '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b',
      name: 'bank-statements.pdf',
      extension: 'pdf',
      size: 482133,
      content_type: 'application/pdf',
      uploaded_by: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
      uploaded_by_email: 'client@example.com',
      uploaded_by_name: 'Jordan Smith',
      task_id: null,
    },
  },
  {
    key: 'file_signed',
    event: 'file.signed',
    noun: 'File',
    label: 'Document Signed',
    description: 'Triggers when a PDF in a portal is fully signed.',
    output: [
      { key: 'file_id', label: 'File ID' },
      { key: 'name', label: 'File Name' },
      { key: 'task_id', label: 'Task ID' },
      { key: 'signed_by_email', label: 'Signed By Email' },
      { key: 'signed_by_name', label: 'Signed By Name' },
      { key: 'signed_at', label: 'Signed At', type: 'datetime' },
    ],
    sample: {
      file_id: '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b',
      name: 'engagement-letter.pdf',
      task_id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
      signed_by_email: 'client@example.com',
      signed_by_name: 'Jordan Smith',
      signed_at: '2026-11-20T10:15:00.000Z',
    },
  },
  {
    key: 'task_created',
    event: 'task.created',
    noun: 'Task',
    label: 'New Task',
    description: 'Triggers when a task is created in a portal.',
    output: [
      { key: 'task_id', label: 'Task ID' },
      { key: 'title', label: 'Title' },
      { key: 'action_type', label: 'Action Type' },
      { key: 'due_date', label: 'Due Date', type: 'datetime' },
      { key: 'status', label: 'Status' },
    ],
    sample: {
      task_id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
      title: 'Upload your 2026 bank statements',
      action_type: 'File Request',
      due_date: '2026-12-15T17:00:00.000Z',
      status: 'Open',
    },
  },
  {
    key: 'task_completed',
    event: 'task.completed',
    noun: 'Task',
    label: 'Task Completed',
    description: 'Triggers when a task is marked done (web application, API, or a file request fulfilled by an upload).',
    output: [
      { key: 'task_id', label: 'Task ID' },
      { key: 'action_type', label: 'Action Type' },
      { key: 'status', label: 'Status' },
      { key: 'attached_files[]file_id', label: 'Attached File IDs' },
      { key: 'attached_files[]name', label: 'Attached File Names' },
      { key: 'file_id', label: 'Completing File ID' },
    ],
    sample: {
      task_id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
      action_type: 'File Request',
      status: 'Done',
      attached_files: [{ file_id: '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b', name: 'bank-statements.pdf' }],
      file_id: '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b',
    },
  },
  {
    key: 'guest_invited',
    event: 'guest.invited',
    noun: 'Guest',
    label: 'Guest Invited',
    description: 'Triggers when a guest (a client) is invited to a portal.',
    output: [
      { key: 'guest_email', label: 'Guest Email' },
      { key: 'guest_name', label: 'Guest Name' },
      { key: 'invited_by', label: 'Invited By (user ID)' },
      { key: 'user_id', label: 'Guest User ID (for assigning tasks)' },
    ],
    sample: {
      guest_email: 'client@example.com',
      guest_name: 'Jordan Smith',
      invited_by: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
      user_id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
    },
  },
];

const subscribe = (event) => async (z, bundle) =>
  (await z.request({ url: v1('/webhooks'), method: 'POST', body: { url: bundle.targetUrl, events: [event] } })).data;

/** A webhook already deleted (e.g. by an administrator in the web application) is no error. */
const unsubscribe = async (z, bundle) => {
  const webhookId = bundle.subscribeData.webhook_id;
  const response = await z.request({ url: v1(`/webhooks/${encodeURIComponent(webhookId)}`), method: 'DELETE', skipThrowForStatus: true });
  if (response.status === 404) return { success: true, webhook_id: webhookId, already_deleted: true };
  return throwExplained(response, z).data;
};

/**
 * A delivery: signed with the subscription's secret, else refused. Other events (the
 * `webhook.test` ping an administrator sends from the webhook settings page) and, when a portal is
 * chosen, other portals' events start nothing. The event's age is not checked: Zapier may run
 * this later than it received the request; the signature is what authenticates it.
 */
const receive = (definition) => async (z, bundle) => {
  const raw = bundle.rawRequest || {};
  const secret = bundle.subscribeData && bundle.subscribeData.secret;
  if (!secret || typeof raw.content !== 'string' || !isSignedBy(secret, raw.content, header(raw.headers, 'X-Webhook-Signature'))) {
    throw new z.errors.Error('Refused a delivery without a valid Client Portals signature (X-Webhook-Signature).', 'invalid_signature', 401);
  }
  const payload = JSON.parse(raw.content);
  if (payload.event !== definition.event) return [];
  const portalId = bundle.inputData && bundle.inputData.portal_id;
  if (portalId && payload.portal_id !== portalId) return [];
  return [{ id: payload.event_id, ...payload }];
};

const hookTrigger = (definition) => ({
  key: definition.key,
  noun: definition.noun,
  display: { label: definition.label, description: definition.description },
  operation: {
    type: 'hook',
    inputFields:
      definition.portalFilter === false
        ? []
        : [portalField({ required: false, helpText: 'Only this portal’s events (leave empty for every portal).' })],
    performSubscribe: subscribe(definition.event),
    performUnsubscribe: unsubscribe,
    perform: receive(definition),
    performList: (z, bundle) => byEvent[definition.event](z, bundle),
    sample: { id: base.event_id, event: definition.event, ...base, ...definition.sample },
    outputFields: [...commonEventOutput, ...definition.output],
  },
});

const hookTriggers = EVENTS.map(hookTrigger);

module.exports = { EVENTS, hookTriggers };
