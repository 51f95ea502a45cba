'use strict';

const { v1, listAll, listValues, pickFilled } = require('../lib/api');
const { portalField, taskOutput } = require('../lib/fields');

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
      portalField(),
      { key: 'title', label: 'Title', required: true },
      { key: 'description', label: 'Description', type: 'text', required: false },
      { key: 'action_type', label: 'Action Type', choices: ACTION_TYPES, default: 'General', required: false },
      { key: 'due_date', label: 'Due Date', type: 'datetime', required: false },
      {
        key: 'send_reminder',
        label: 'Send Reminders',
        type: 'boolean',
        default: 'false',
        required: false,
        helpText: 'Emails the guests 14, 7, 3 and 0 days before the due date and 7 days after. Needs a due date.',
      },
      { key: 'assigned_guest_ids', label: 'Assigned Guests (user IDs)', list: true, required: false, helpText: 'Guests already invited to this portal.' },
      { key: 'assigned_member_ids', label: 'Assigned Members (user IDs)', list: true, required: false, helpText: 'Members of your organization.' },
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

module.exports = { ACTION_TYPES, createTask, completeTask };
