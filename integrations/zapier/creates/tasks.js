'use strict';

const { v1, listAll, listValues, pickFilled } = require('../lib/api');
const { guestField, portalField, taskOutput } = require('../lib/fields');

const ACTION_TYPES = ['General', 'Question?', 'File Request', 'Sign Document', 'Fill Form'];

const taskSample = {
  id: '7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d',
  vault_id: '6f1c2d7e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
  org_id: '0b6e4f0a-1c2d-4e3f-8a9b-0c1d2e3f4a5b',
  title: 'Upload your 2026 bank statements',
  description: 'All accounts, January to December.',
  action_type: 'File Request',
  status: 'Open',
  due_date: '2026-12-15T17:00:00.000Z',
  send_reminder: true,
  assignees: [{ user_id: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e', name: 'Jordan Smith', email: 'client@example.com', type: 'guest' }],
  attached_file_ids: [],
  document_file_id: null,
  completed_at: null,
  created_at: '2026-11-01T09:00:00.000Z',
  updated_at: '2026-11-01T09:00:00.000Z',
};

/** The task record (the API answers writes with its id only). */
const readTask = async (z, portalId, taskId) => {
  const tasks = await listAll(z, `/portals/${encodeURIComponent(portalId)}/tasks`);
  const task = tasks.find((t) => t.id === taskId);
  if (!task) throw new z.errors.Error(`Task ${taskId} is not a task of portal ${portalId}.`, 'not_found', 404);
  return task;
};

const createTask = {
  key: 'create_task',
  noun: 'Task',
  display: { label: 'Create Task', description: 'Creates a task in a portal, with assignees, a due date and reminders.' },
  operation: {
    inputFields: [
      portalField({ altersDynamicFields: true }),
      { key: 'title', label: 'Title', required: true, helpText: 'What the client is asked to do (1-500 characters).' },
      { key: 'description', label: 'Description', type: 'text', required: false, helpText: 'Details shown with the task (up to 10,000 characters).' },
      {
        key: 'action_type',
        label: 'Action Type',
        choices: ACTION_TYPES,
        default: 'General',
        required: false,
        helpText: 'What completes the task: General, Question?, File Request (an upload), Sign Document or Fill Form.',
      },
      { key: 'due_date', label: 'Due Date', type: 'datetime', required: false, helpText: 'When the task is due (needed for reminders).' },
      {
        key: 'send_reminder',
        label: 'Send Reminders',
        type: 'boolean',
        default: 'false',
        required: false,
        helpText: 'Emails the guests 14, 7, 3 and 0 days before the due date and 7 days after. Needs a due date.',
      },
      guestField(),
      {
        key: 'assigned_member_ids',
        label: 'Assigned Members (user IDs)',
        list: true,
        required: false,
        helpText: 'User IDs of members of your organization.',
      },
    ],
    perform: async (z, bundle) => {
      const input = bundle.inputData;
      const body = pickFilled({
        title: input.title,
        description: input.description,
        action_type: input.action_type,
        due_date: input.due_date,
        assigned_guest_ids: listValues(input.assigned_guest_ids),
        assigned_member_ids: listValues(input.assigned_member_ids),
      });
      if (input.send_reminder === true || input.send_reminder === 'true') body.send_reminder = true;
      const url = v1(`/portals/${encodeURIComponent(input.portal_id)}/tasks`);
      const created = (await z.request({ url, method: 'POST', body })).data;
      return readTask(z, input.portal_id, created.task_id);
    },
    sample: taskSample,
    outputFields: taskOutput,
  },
};

const completeTask = {
  key: 'complete_task',
  noun: 'Task',
  display: { label: 'Complete Task', description: 'Marks a task done (a task already done stays done).' },
  operation: {
    inputFields: [
      portalField({ altersDynamicFields: true }),
      { key: 'task_id', label: 'Task', required: true, dynamic: 'task_list.id.title', helpText: 'An open task of the portal (or map a task id).' },
    ],
    perform: async (z, bundle) => {
      const { portal_id: portalId, task_id: taskId } = bundle.inputData;
      await z.request({ url: v1(`/tasks/${encodeURIComponent(taskId)}/complete`), method: 'POST' });
      return readTask(z, portalId, taskId);
    },
    sample: { ...taskSample, status: 'Done', completed_at: '2026-11-20T10:15:00.000Z' },
    outputFields: taskOutput,
  },
};

const boolInput = (value) => (value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined);

const updateTask = {
  key: 'update_task',
  noun: 'Task',
  display: { label: 'Update Task', description: 'Changes a task: title, description, due date, reminders, status or assignees (only the fields filled in).' },
  operation: {
    inputFields: [
      portalField({ altersDynamicFields: true }),
      { key: 'task_id', label: 'Task', required: true, dynamic: 'task_list.id.title', helpText: 'An open task of the portal (or map any task id).' },
      { key: 'title', label: 'Title', required: false, helpText: 'A new title (leave empty to keep it).' },
      { key: 'description', label: 'Description', type: 'text', required: false, helpText: 'A new description (leave empty to keep it).' },
      { key: 'due_date', label: 'Due Date', type: 'datetime', required: false, helpText: 'A new due date (leave empty to keep it).' },
      {
        key: 'clear_due_date',
        label: 'Clear Due Date',
        type: 'boolean',
        required: false,
        helpText: 'Yes removes the due date (not possible while reminders are on).',
      },
      {
        key: 'send_reminder',
        label: 'Send Reminders',
        type: 'boolean',
        required: false,
        helpText: 'Yes turns reminders on (needs a due date), No turns them off; empty keeps them as they are.',
      },
      {
        key: 'status',
        label: 'Status',
        choices: ['Open', 'Done'],
        required: false,
        helpText: 'Done finishes the task, Open reopens it; empty keeps it.',
      },
      guestField({ helpText: 'Replaces the guest assignees with these guests of the portal (leave empty to keep them).' }),
      {
        key: 'assigned_member_ids',
        label: 'Assigned Members (user IDs)',
        list: true,
        required: false,
        helpText: 'Replaces the member assignees with these members of your organization (leave empty to keep them).',
      },
    ],
    perform: async (z, bundle) => {
      const input = bundle.inputData;
      const body = pickFilled({ title: input.title, description: input.description, due_date: input.due_date, status: input.status });
      if (boolInput(input.clear_due_date)) body.due_date = null;
      const reminders = boolInput(input.send_reminder);
      if (reminders !== undefined) body.send_reminder = reminders;
      const guests = listValues(input.assigned_guest_ids);
      const members = listValues(input.assigned_member_ids);
      if (guests.length) body.assigned_guest_ids = guests;
      if (members.length) body.assigned_member_ids = members;
      await z.request({ url: v1(`/tasks/${encodeURIComponent(input.task_id)}`), method: 'PATCH', body });
      return readTask(z, input.portal_id, input.task_id);
    },
    sample: { ...taskSample, title: 'Upload your 2026 bank statements (all accounts)' },
    outputFields: taskOutput,
  },
};

module.exports = { ACTION_TYPES, createTask, completeTask, updateTask, readTask, taskSample };
