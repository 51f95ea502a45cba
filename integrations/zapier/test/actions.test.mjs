import { beforeAll, describe, expect, it } from 'vitest';

import { ACTION_TYPES } from '../creates/tasks.js';
import { App, api, appTester, connect, failure, loopbackServer } from './support.mjs';

// The actions, searches and dropdowns against real data of the demo organization; every result
// is checked against what the API reads back afterwards.

const files = loopbackServer();
let authData;
let me;

const run = (kind, key, inputData) => appTester(App[kind][key].operation.perform, { authData, inputData });

beforeAll(async () => {
  ({ authData } = await connect());
  me = (await api(authData, 'GET', '/me')).body;
});

describe('portals: create (from a template), update, find, dropdowns', () => {
  let template;
  let portal;

  it('creates a template, then a portal from it: the template’s tags come first, the portal is no template', async () => {
    template = await run('creates', 'create_portal', { name: 'Year-end template', tags: ['year-end'], is_template: 'true' });
    expect(template).toMatchObject({ name: 'Year-end template', is_template: true });
    const templates = await run('triggers', 'template_list', {});
    expect(templates.map((t) => t.id)).toContain(template.id);
    expect(templates.every((t) => t.is_template)).toBe(true);

    portal = await run('creates', 'create_portal', { name: '  Zapier Client Ltd ', tags: ['zapier', ''], template_id: template.id, is_template: 'false' });
    expect(portal).toMatchObject({ name: 'Zapier Client Ltd', tags: ['year-end', 'zapier'], is_template: false, archived: false });
    expect((await api(authData, 'GET', `/portals/${portal.id}`)).body).toMatchObject({ id: portal.id, tags: ['year-end', 'zapier'] });
    const portals = await run('triggers', 'portal_list', {});
    expect(portals.map((p) => p.id)).toContain(portal.id);
    expect(portals.map((p) => p.id)).not.toContain(template.id);
  });

  it('a missing name is refused with the API’s message, and nothing is created', async () => {
    const before = (await api(authData, 'GET', '/portals')).body.length;
    expect(await failure(run('creates', 'create_portal', { name: '   ' }))).toMatchObject({
      message: expect.stringMatching(/^Client Portals: name: /),
      code: 'invalid_request',
      status: 400,
    });
    expect((await api(authData, 'GET', '/portals')).body.length).toBe(before);
  });

  it('updates name, tags, workflow state (from the dropdown) and external system ids; other ids are kept', async () => {
    const states = await run('triggers', 'workflow_state_list', {});
    expect(states.length).toBeGreaterThan(1);
    const target = states.at(-1);
    let updated = await run('creates', 'update_portal', {
      portal_id: portal.id,
      name: 'Zapier Client Limited',
      tags: ['zapier', 'priority'],
      workflow_state_id: target.id,
      external_system_ids: { crm: 'ZAP-001', ledger: 'L-77' },
    });
    expect(updated).toMatchObject({
      name: 'Zapier Client Limited',
      tags: ['zapier', 'priority'],
      workflowStateId: target.id,
      workflowStateName: target.name,
      externalSystemIds: { crm: 'ZAP-001', ledger: 'L-77' },
    });
    updated = await run('creates', 'update_portal', { portal_id: portal.id, remove_external_systems: ['ledger'], archived: 'true' });
    expect(updated).toMatchObject({ name: 'Zapier Client Limited', archived: true, externalSystemIds: { crm: 'ZAP-001' } });
    updated = await run('creates', 'update_portal', { portal_id: portal.id, archived: 'false' });
    expect((await api(authData, 'GET', `/portals/${portal.id}`)).body).toMatchObject({ archived: false, externalSystemIds: { crm: 'ZAP-001' } });
  });

  it('bad updates say what to fix and change nothing', async () => {
    expect(await failure(run('creates', 'update_portal', { portal_id: portal.id }))).toMatchObject({
      message: 'Nothing to update: fill at least one field besides the portal.',
    });
    expect(await failure(run('creates', 'update_portal', { portal_id: portal.id, workflow_state_id: 'no-such-state' }))).toMatchObject({
      message: expect.stringMatching(/^Workflow State: "no-such-state" is not one of this organization’s workflow states \(.+\)\.$/),
    });
    const other = await run('creates', 'create_portal', { name: 'Another Client' });
    // The pair is held by the first portal (system names compare case-insensitively): 409.
    expect(await failure(run('creates', 'update_portal', { portal_id: other.id, name: 'Renamed', external_system_ids: { CRM: 'ZAP-001' } }))).toMatchObject({
      message: expect.stringMatching(/^Client Portals: .+/),
      code: 'conflict',
      status: 409,
    });
    expect((await api(authData, 'GET', `/portals/${other.id}`)).body).toMatchObject({ name: 'Another Client', externalSystemIds: {} });
  });

  it('finds the portal by external system id (system name in any case), and nothing for an unknown id', async () => {
    const found = await run('searches', 'find_portal_by_external_id', { external_system: 'CRM', external_id: 'ZAP-001' });
    expect(found.map((p) => p.id)).toEqual([portal.id]);
    expect(await run('searches', 'find_portal_by_external_id', { external_system: 'crm', external_id: 'zap-001' })).toEqual([]);
  });

  it('finds the portal by name; find-or-create creates one when the search finds none', async () => {
    const found = await run('searches', 'find_portal_by_name', { name: ' zapier client LIMITED ' });
    expect(found.map((p) => p.id)).toEqual([portal.id]);
    // Zapier runs the search, then (nothing found) the create with the same input.
    const { search, create } = App.searchOrCreates.find_portal_by_name;
    expect(await run('searches', search, { name: 'Brand New Client' })).toEqual([]);
    const created = await run('creates', create, { name: 'Brand New Client' });
    expect((await run('searches', search, { name: 'Brand New Client' })).map((p) => p.id)).toEqual([created.id]);
  });

  it('an archived portal is found only when asked for', async () => {
    const archived = await run('creates', 'create_portal', { name: 'Old Client' });
    await run('creates', 'update_portal', { portal_id: archived.id, archived: 'true' });
    expect(await run('searches', 'find_portal_by_name', { name: 'Old Client' })).toEqual([]);
    expect((await run('searches', 'find_portal_by_name', { name: 'Old Client', include_archived: 'true' })).map((p) => p.id)).toEqual([archived.id]);
  });
});

describe('tasks: create (every action type, due date, reminders, assignees) and complete', () => {
  let portalId;
  let guest;

  beforeAll(async () => {
    // The demo guest is assigned to a task of one demo portal: that portal, and the guest's id.
    for (const portal of (await api(authData, 'GET', '/portals')).body) {
      const tasks = (await api(authData, 'GET', `/portals/${portal.id}/tasks`)).body;
      const assignee = tasks.flatMap((t) => t.assignees).find((a) => a.type === 'guest');
      if (assignee) {
        portalId = portal.id;
        guest = assignee;
        break;
      }
    }
    expect(guest).toMatchObject({ email: 'guest@demo.test' });
  });

  it.each(ACTION_TYPES)('creates a "%s" task', async (actionType) => {
    const task = await run('creates', 'create_task', { portal_id: portalId, title: `${actionType} for the client`, action_type: actionType });
    expect(task).toMatchObject({ vault_id: portalId, title: `${actionType} for the client`, action_type: actionType, status: 'Open', due_date: null });
  });

  it('creates a task with description, due date, reminders and a guest and a member assigned', async () => {
    const task = await run('creates', 'create_task', {
      portal_id: portalId,
      title: 'Upload your bank statements',
      description: 'January to December',
      action_type: 'File Request',
      due_date: '2026-12-15T17:00:00+01:00',
      send_reminder: 'true',
      assigned_guest_ids: [guest.user_id],
      assigned_member_ids: [me.user_id],
    });
    expect(task).toMatchObject({
      description: 'January to December',
      due_date: '2026-12-15T16:00:00.000Z',
      send_reminder: true,
      assignees: [
        expect.objectContaining({ user_id: guest.user_id, type: 'guest' }),
        expect.objectContaining({ user_id: me.user_id, type: 'member', email: 'admin@demo.test' }),
      ],
    });
  });

  it('refuses reminders without a due date and an assignee who is no guest, with the API’s reason', async () => {
    const before = (await api(authData, 'GET', `/portals/${portalId}/tasks`)).body.length;
    expect(await failure(run('creates', 'create_task', { portal_id: portalId, title: 'No date', send_reminder: 'true' }))).toMatchObject({
      message: expect.stringMatching(/^Client Portals: send_reminder: /),
      code: 'invalid_request',
    });
    expect(await failure(run('creates', 'create_task', { portal_id: portalId, title: 'Bad guest', assigned_guest_ids: [me.user_id] }))).toMatchObject({
      message: `Client Portals: assigned_guest_ids: ${me.user_id} is not a guest of this portal`,
    });
    expect((await api(authData, 'GET', `/portals/${portalId}/tasks`)).body.length).toBe(before);
  });

  it('completes a task chosen from the open-task dropdown; it leaves the dropdown', async () => {
    const task = await run('creates', 'create_task', { portal_id: portalId, title: 'Sign the engagement letter', action_type: 'Sign Document' });
    expect((await run('triggers', 'task_list', { portal_id: portalId })).map((t) => t.id)).toContain(task.id);
    const done = await run('creates', 'complete_task', { portal_id: portalId, task_id: task.id });
    expect(done).toMatchObject({ id: task.id, status: 'Done', completed_at: expect.any(String) });
    expect((await run('triggers', 'task_list', { portal_id: portalId })).map((t) => t.id)).not.toContain(task.id);
    // Completing it again is no error (the API answers 200 and changes nothing).
    await expect(run('creates', 'complete_task', { portal_id: portalId, task_id: task.id })).resolves.toMatchObject({ status: 'Done' });
  });

  it('updates a task: title, due date, reminders, status and assignees (a guest from the guest dropdown); empty fields keep theirs', async () => {
    const guests = await run('triggers', 'guest_list', { portal_id: portalId });
    const listed = guests.find((g) => g.email === 'guest@demo.test');
    expect(listed).toMatchObject({ id: guest.user_id, user_id: guest.user_id, state: expect.stringMatching(/^(invited|accepted)$/) });
    const task = await run('creates', 'create_task', { portal_id: portalId, title: 'Reconcile the accounts', description: 'All of them' });
    let updated = await run('creates', 'update_task', {
      portal_id: portalId,
      task_id: task.id,
      title: 'Reconcile the bank accounts',
      due_date: '2026-12-20T12:00:00Z',
      send_reminder: 'true',
      assigned_guest_ids: [listed.user_id],
      assigned_member_ids: [me.user_id],
    });
    expect(updated).toMatchObject({
      id: task.id,
      title: 'Reconcile the bank accounts',
      description: 'All of them',
      due_date: '2026-12-20T12:00:00.000Z',
      send_reminder: true,
      assignees: [expect.objectContaining({ user_id: guest.user_id, type: 'guest' }), expect.objectContaining({ user_id: me.user_id, type: 'member' })],
    });
    updated = await run('creates', 'update_task', { portal_id: portalId, task_id: task.id, send_reminder: 'false', clear_due_date: 'true', status: 'Done' });
    expect(updated).toMatchObject({ title: 'Reconcile the bank accounts', due_date: null, send_reminder: false, status: 'Done' });
    expect(updated.assignees).toHaveLength(2);
    const read = (await api(authData, 'GET', `/portals/${portalId}/tasks`)).body.find((t) => t.id === task.id);
    expect(read).toMatchObject({ status: 'Done', due_date: null, send_reminder: false });
  });

  it('an update the API refuses shows its reason and changes nothing', async () => {
    const task = await run('creates', 'create_task', { portal_id: portalId, title: 'Keep me' });
    expect(await failure(run('creates', 'update_task', { portal_id: portalId, task_id: task.id, title: 'Changed', assigned_guest_ids: [me.user_id] }))).toMatchObject({
      message: `Client Portals: assigned_guest_ids: ${me.user_id} is not a guest of this portal`,
      status: 400,
    });
    expect((await api(authData, 'GET', `/portals/${portalId}/tasks`)).body.find((t) => t.id === task.id)).toMatchObject({ title: 'Keep me' });
  });

  it('finds a task by title (any case), open ones first; none is an empty result', async () => {
    const older = await run('creates', 'create_task', { portal_id: portalId, title: 'Find me please' });
    await run('creates', 'complete_task', { portal_id: portalId, task_id: older.id });
    const newer = await run('creates', 'create_task', { portal_id: portalId, title: 'FIND ME PLEASE ' });
    const found = await run('searches', 'find_task', { portal_id: portalId, title: ' find me please' });
    expect(found.map((t) => t.id)).toEqual([newer.id, older.id]);
    expect((await run('searches', 'find_task', { portal_id: portalId, title: 'Find me please', include_done: 'false' })).map((t) => t.id)).toEqual([newer.id]);
    expect(await run('searches', 'find_task', { portal_id: portalId, title: 'No such task' })).toEqual([]);
  });
});

describe('guests and files', () => {
  let portal;

  beforeAll(async () => {
    portal = await run('creates', 'create_portal', { name: 'Guests and Files Ltd' });
  });

  it('invites several guests with their names', async () => {
    const result = await run('creates', 'invite_guests', {
      portal_id: portal.id,
      emails: ['Pat@Client.example', 'sam@client.example'],
      names: ['Pat Client', ''],
    });
    expect(result).toMatchObject({ success: true, invited_count: 2, emails: ['pat@client.example', 'sam@client.example'] });
    // The guests' user ids: in the answer, and in the guest dropdown.
    const listed = await run('triggers', 'guest_list', { portal_id: portal.id });
    expect(listed.map((g) => [g.email, g.name, g.state])).toEqual([
      ['pat@client.example', 'Pat Client', 'invited'],
      ['sam@client.example', null, 'invited'],
    ]);
    expect(result.guests).toEqual(listed.map((g) => ({ user_id: g.user_id, email: g.email })));
    expect(result.user_id).toBe(listed[0].user_id);
  });

  it('an invalid address is refused with the API’s reason, and nobody is invited', async () => {
    expect(await failure(run('creates', 'invite_guests', { portal_id: portal.id, emails: ['ok@client.example', 'not-an-email'] }))).toMatchObject({
      message: 'Client Portals: emails.1: Invalid email address "not-an-email"',
      status: 400,
    });
    expect(await failure(run('creates', 'invite_guests', { portal_id: portal.id, emails: [' '] }))).toMatchObject({
      message: 'Email Addresses: give at least one address.',
    });
  });

  it('uploads a file from a URL, named from the URL, linked to a task; the file is listed with its size', async () => {
    files.files['/exports/trial%20balance.csv'] = { contentType: 'text/csv', body: Buffer.from('account,debit,credit\n1000,10,0\n') };
    const task = await run('creates', 'create_task', { portal_id: portal.id, title: 'Send the trial balance', action_type: 'File Request' });
    const uploaded = await run('creates', 'upload_file', { portal_id: portal.id, file: `${files.url}/exports/trial%20balance.csv`, task_id: task.id });
    expect(uploaded).toMatchObject({ name: 'trial balance.csv', extension: 'csv', size: 31, portal_id: portal.id });
    const listed = (await api(authData, 'GET', `/portals/${portal.id}/files`)).body.find((f) => f.id === uploaded.id);
    expect(listed).toMatchObject({ name: 'trial balance.csv', size: 31, content_type: 'text/csv', task_id: task.id });
  });

  it('a file from an earlier step (a URL that names no file) is named as its download says', async () => {
    files.files['/hydrate/8f3a2c'] = {
      contentType: 'application/pdf',
      body: Buffer.from('%PDF-1.4 report'),
      disposition: `attachment; filename="Q3 report.pdf"; filename*=UTF-8''Q3%20r%C3%A9port.pdf`,
    };
    const uploaded = await run('creates', 'upload_file', { portal_id: portal.id, file: `${files.url}/hydrate/8f3a2c` });
    expect(uploaded).toMatchObject({ name: 'Q3 réport.pdf', extension: 'pdf', size: 15 });
    // The app asked the download for its name (HEAD) without the connection's token: only the
    // service's API gets it. The service then fetched the bytes itself.
    const requests = files.fetched.filter((r) => r.path === '/hydrate/8f3a2c');
    expect(requests.map((r) => r.method)).toEqual(['HEAD', 'GET']);
    expect(requests.every((r) => r.headers.authorization === undefined)).toBe(true);
    // A name given in the step wins.
    const named = await run('creates', 'upload_file', { portal_id: portal.id, file: `${files.url}/hydrate/8f3a2c`, filename: 'Quarter 3.pdf' });
    expect(named).toMatchObject({ name: 'Quarter 3.pdf' });
  });

  it('a URL that cannot be fetched is refused with the reason, and no file appears', async () => {
    expect(await failure(run('creates', 'upload_file', { portal_id: portal.id, file: `${files.url}/missing.pdf` }))).toMatchObject({
      message: 'Client Portals: file_url: The server answered with status 404',
    });
    expect(await failure(run('creates', 'upload_file', { portal_id: portal.id, file: `${files.url}/` }))).toMatchObject({
      message: expect.stringMatching(/^File Name: neither the download nor its URL names the file/),
    });
    const names = (await api(authData, 'GET', `/portals/${portal.id}/files`)).body.map((f) => f.name);
    expect(names).toEqual(['trial balance.csv', 'Q3 réport.pdf', 'Quarter 3.pdf']);
  });

  it('finds a file by name (any case), never a folder; none is an empty result', async () => {
    const [found] = await run('searches', 'find_file', { portal_id: portal.id, name: 'TRIAL BALANCE.csv' });
    const listed = (await api(authData, 'GET', `/portals/${portal.id}/files`)).body.find((f) => f.name === 'trial balance.csv');
    expect(found).toEqual(listed);
    expect(await run('searches', 'find_file', { portal_id: portal.id, name: 'missing.pdf' })).toEqual([]);
  });
});
