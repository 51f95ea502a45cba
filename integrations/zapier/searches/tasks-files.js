'use strict';

// Finding a task or a file of a portal by its title or name (the API lists them; the match is
// made here: exact, ignoring capitalization and surrounding spaces).

const { listAll } = require('../lib/api');
const { portalField, taskOutput } = require('../lib/fields');
const { taskSample } = require('../creates/tasks');

const same = (a, b) => String(a).trim().toLowerCase() === String(b).trim().toLowerCase();

const findTask = {
  key: 'find_task',
  noun: 'Task',
  display: { label: 'Find Task', description: 'Finds a task of a portal by its title (open tasks first, then the newest).' },
  operation: {
    inputFields: [
      portalField(),
      { key: 'title', label: 'Title', required: true, helpText: 'The task’s exact title (capitalization and surrounding spaces are ignored).' },
      {
        key: 'include_done',
        label: 'Include Done Tasks',
        type: 'boolean',
        default: 'true',
        required: false,
        helpText: 'No finds open tasks only.',
      },
    ],
    perform: async (z, bundle) => {
      const { portal_id: portalId, title } = bundle.inputData;
      const withDone = !(bundle.inputData.include_done === false || bundle.inputData.include_done === 'false');
      const tasks = (await listAll(z, `/portals/${encodeURIComponent(portalId)}/tasks`)).filter(
        (t) => same(t.title, title) && (withDone || t.status === 'Open'),
      );
      return tasks.sort((a, b) => Number(a.status === 'Done') - Number(b.status === 'Done') || b.created_at.localeCompare(a.created_at));
    },
    sample: taskSample,
    outputFields: taskOutput,
  },
};

const fileSample = {
  id: '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b',
  name: 'bank-statements.pdf',
  extension: 'pdf',
  size: 482133,
  content_type: 'application/pdf',
  is_folder: false,
  parent_folder_file_id: null,
  task_id: null,
  uploaded_by: 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e',
  uploaded_at: '2026-11-20T10:15:00.000Z',
};

const findFile = {
  key: 'find_file',
  noun: 'File',
  display: { label: 'Find File', description: 'Finds a file of a portal by its name (the newest first). File contents are never returned.' },
  operation: {
    inputFields: [
      portalField(),
      { key: 'name', label: 'File Name', required: true, helpText: 'The exact file name with its extension, e.g. bank-statements.pdf (capitalization is ignored).' },
    ],
    perform: async (z, bundle) => {
      const { portal_id: portalId, name } = bundle.inputData;
      const files = (await listAll(z, `/portals/${encodeURIComponent(portalId)}/files`)).filter((f) => !f.is_folder && same(f.name, name));
      return files.sort((a, b) => String(b.uploaded_at).localeCompare(String(a.uploaded_at)));
    },
    sample: fileSample,
    outputFields: [
      { key: 'id', label: 'File ID' },
      { key: 'name', label: 'File Name' },
      { key: 'extension', label: 'Extension' },
      { key: 'size', label: 'Size (bytes)', type: 'integer' },
      { key: 'content_type', label: 'Content Type' },
      { key: 'is_folder', label: 'Is Folder', type: 'boolean' },
      { key: 'parent_folder_file_id', label: 'Folder ID' },
      { key: 'task_id', label: 'Task ID' },
      { key: 'uploaded_by', label: 'Uploaded By (user ID)' },
      { key: 'uploaded_at', label: 'Uploaded At', type: 'datetime' },
    ],
  },
};

module.exports = { findTask, findFile };
