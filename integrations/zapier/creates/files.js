'use strict';

const contentDisposition = require('content-disposition');

const { v1, pickFilled } = require('../lib/api');
const { portalField } = require('../lib/fields');

/** The last path segment of the file's URL, as a name ("" when it has none). */
const nameFromUrl = (url) => {
  try {
    const segment = new URL(url).pathname.split('/').pop() || '';
    return decodeURIComponent(segment).trim();
  } catch {
    return '';
  }
};

/**
 * The file's name: the download's Content-Disposition filename when the server gives one (a file
 * from an earlier Zapier step arrives as a URL that names no file), else the URL's last segment.
 */
const nameOfDownload = async (z, url) => {
  const response = await z.request({ url, method: 'HEAD', skipThrowForStatus: true }).catch(() => undefined);
  const header = response && response.status < 400 ? response.getHeader('content-disposition') : undefined;
  try {
    const name = header ? String(contentDisposition.parse(header).parameters.filename || '').trim() : '';
    if (name) return name;
  } catch {
    // a malformed header names nothing
  }
  return nameFromUrl(url);
};

const uploadFile = {
  key: 'upload_file',
  noun: 'File',
  display: { label: 'Upload File', description: 'Uploads a file (from a file field or a public URL) to a portal.' },
  operation: {
    inputFields: [
      portalField({ altersDynamicFields: true }),
      { key: 'file', label: 'File', type: 'file', required: true, helpText: 'A file from an earlier step, or a public https URL (up to 100 MB).' },
      { key: 'filename', label: 'File Name', required: false, helpText: 'With its extension. When empty: the name the download gives, else the URL’s last part.' },
      { key: 'content_type', label: 'Content Type', required: false, helpText: 'e.g. application/pdf. Taken from the download when empty.' },
      { key: 'parent_folder_file_id', label: 'Folder ID', required: false, helpText: 'A folder of the portal; empty for the portal’s root.' },
      { key: 'task_id', label: 'Task', dynamic: 'task_list.id.title', required: false, helpText: 'Links the file to this task of the portal.' },
    ],
    perform: async (z, bundle) => {
      const input = bundle.inputData;
      const filename = (input.filename || '').trim() || (await nameOfDownload(z, input.file));
      if (!filename) {
        throw new z.errors.Error('File Name: neither the download nor its URL names the file; fill in File Name (with its extension).', 'invalid_request', 400);
      }
      const body = pickFilled({
        filename,
        file_url: input.file,
        contentType: input.content_type,
        parent_folder_file_id: input.parent_folder_file_id,
        task_id: input.task_id,
      });
      const url = v1(`/portals/${encodeURIComponent(input.portal_id)}/files`);
      return { ...(await z.request({ url, method: 'POST', body })).data, portal_id: input.portal_id };
    },
    sample: {
      id: '5e4d3c2b-1a0f-4e9d-8c7b-6a5f4e3d2c1b',
      name: 'bank-statements.pdf',
      extension: 'pdf',
      size: 482133,
      created_date: '2026-11-20T10:15:00.000Z',
      portal_id: '6f1c2d7e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
    },
    outputFields: [
      { key: 'id', label: 'File ID' },
      { key: 'name', label: 'Name' },
      { key: 'extension', label: 'Extension' },
      { key: 'size', label: 'Size (bytes)', type: 'integer' },
      { key: 'created_date', label: 'Uploaded At', type: 'datetime' },
      { key: 'portal_id', label: 'Portal ID' },
    ],
  },
};

module.exports = { uploadFile };
