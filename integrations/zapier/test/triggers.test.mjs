import { randomBytes } from 'node:crypto';

// pdf-lib is the repository's (the root package's node_modules): the test needs a real PDF to sign.
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { EVENTS } from '../triggers/hooks.js';
import { chooseDocumentToSign, signAsGuest } from './browser.mjs';
import { App, api, appTester, connect, failure, loopbackServer, zapierHeaders } from './support.mjs';

// Each instant trigger against the real service: subscribing creates a webhook for its one event
// pointing at the target URL (a loopback receiver standing in for Zapier's hook URL); the test then
// causes the event through the API, and the service's own delivery (outbox → local Inngest
// executor → webhook fan-out and delivery functions) reaches the receiver signed; perform checks
// the signature and turns it into the trigger's output; unsubscribing deletes the webhook, and the
// same event caused again is delivered no more.
//
// `file.signed` is caused as the product allows it: the PDF, the guest and the Sign Document task
// through the API, the document chosen by a member on the task's page (the API cannot set it),
// and the signature by the guest in the browser (signing is web only: an OAuth client is refused).

const receiver = loopbackServer();
const files = loopbackServer();
const tag = randomBytes(3).toString('hex');
/** The guest who signs: the demo seed's client (a user with a password, guest of other portals). */
const SIGNER = { email: 'client@demo.test', name: 'Casey Client' };
/** How long a delivery may take: relay, fan-out and first attempt run at once (milliseconds). */
const DELIVERY_TIMEOUT_MS = 10_000;
let authData;
let states;
/** A webhook for every event at its own path: once it has an event, that event's fan-out is done. */
let control;

beforeAll(async () => {
  ({ authData } = await connect());
  ({ body: states } = await api(authData, 'GET', '/workflow-states'));
  files.files['/statements/bank-statement.pdf'] = { contentType: 'application/pdf', body: Buffer.from('%PDF-1.4 bank statement') };
  files.files['/letters/engagement-letter.pdf'] = { contentType: 'application/pdf', body: await engagementLetter() };
  const { status, body } = await api(authData, 'POST', '/webhooks', { url: `${receiver.url}/control`, events: EVENTS.map((e) => e.event) });
  expect(status).toBe(201);
  control = body;
});

afterAll(async () => {
  if (control) await api(authData, 'DELETE', `/webhooks/${control.webhook_id}`);
});

/** Polls the receiver until a request at `path` matches, for at most DELIVERY_TIMEOUT_MS. */
async function delivered(path, matches, what) {
  const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
  for (;;) {
    const found = receiver.received.find((d) => d.path === path && matches(JSON.parse(d.body)));
    if (found) return found;
    if (Date.now() > deadline) {
      const seen = receiver.received.map((d) => `${d.path} ${JSON.parse(d.body).event}`);
      throw new Error(`no delivery of ${what} at ${path} within ${DELIVERY_TIMEOUT_MS} ms; received: ${JSON.stringify(seen)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function call(method, path, body, expected) {
  const response = await api(authData, method, path, body);
  expect(response.status, JSON.stringify(response.body)).toBe(expected);
  return response.body;
}

/** A one-page PDF to sign. */
async function engagementLetter() {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595.28, 841.89]).drawText(`Engagement letter ${tag}: please sign to agree to these terms.`, { x: 56, y: 770, size: 12, font });
  return Buffer.from(await doc.save());
}

async function newPortal(name) {
  return call('POST', '/portals', { name, tags: ['zapier', tag] }, 201);
}

/** Declared output fields a delivery carries only sometimes (spec section 6), absent from CAUSE's. */
const SOMETIMES = { 'task.completed': ['file_id'] };

/**
 * Per event: causes it through the API on `portal` (a fresh one for this trigger) and returns
 * what its delivery must carry beyond the common fields.
 */
const CAUSE = {
  'portal.created': async (portal) => ({ portal_id: portal.id, tags: ['zapier', tag], is_template: false, created_by: expect.any(String) }),
  'portal.workflow_changed': async (portal) => {
    const target = states.at(-1);
    await call('POST', `/portals/${portal.id}/workflow`, { workflowStateId: target.id, workflowStateName: target.name }, 200);
    return { workflow_state_id: target.id, workflow_state_name: target.name, previous_workflow_state_name: null };
  },
  'file.uploaded': async (portal) => {
    const file = await call('POST', `/portals/${portal.id}/files`, { filename: 'bank-statement.pdf', file_url: `${files.url}/statements/bank-statement.pdf` }, 201);
    return {
      file_id: file.id,
      name: 'bank-statement.pdf',
      extension: 'pdf',
      size: 23,
      content_type: 'application/pdf',
      uploaded_by_email: 'admin@demo.test',
      task_id: null,
    };
  },
  'task.created': async (portal) => {
    const due = '2026-12-15T17:00:00.000Z';
    const title = `Upload the bank statements ${tag}`;
    const { task_id: taskId } = await call('POST', `/portals/${portal.id}/tasks`, { title, action_type: 'File Request', due_date: due }, 201);
    return { task_id: taskId, title, action_type: 'File Request', due_date: due, status: 'Open' };
  },
  // A File Request with its file, completed through the API. Only a guest's upload in the web
  // application fulfils a File Request by itself; that completion alone adds `file_id`.
  'task.completed': async (portal) => {
    const { task_id: taskId } = await call('POST', `/portals/${portal.id}/tasks`, { title: `Send the ledger ${tag}`, action_type: 'File Request' }, 201);
    const file = await call('POST', `/portals/${portal.id}/files`, { filename: 'ledger.pdf', file_url: `${files.url}/statements/bank-statement.pdf`, task_id: taskId }, 201);
    await call('POST', `/tasks/${taskId}/complete`, undefined, 200);
    return { task_id: taskId, action_type: 'File Request', status: 'Done', attached_files: [{ file_id: file.id, name: 'ledger.pdf' }] };
  },
  // A real signature: the PDF uploaded, the guest invited and the task created through the API;
  // a member chooses the document on the task's page; the guest signs in the browser. The
  // delivery names the signed copy (a new file beside the original, linked to the task).
  'file.signed': async (portal) => {
    const original = await call('POST', `/portals/${portal.id}/files`, { filename: 'Engagement letter.pdf', file_url: `${files.url}/letters/engagement-letter.pdf` }, 201);
    await call('POST', `/portals/${portal.id}/guests`, { email: SIGNER.email, name: SIGNER.name }, 201);
    const title = `Sign the engagement letter ${tag}`;
    const { task_id: taskId } = await call('POST', `/portals/${portal.id}/tasks`, { title, action_type: 'Sign Document' }, 201);
    const where = { orgId: portal.org_id, portalId: portal.id, taskId };
    await chooseDocumentToSign(process.env.APP_URL, { ...where, fileName: 'Engagement letter.pdf' });
    await signAsGuest(process.env.APP_URL, { ...where, ...SIGNER });
    const { body: portalFiles } = await api(authData, 'GET', `/portals/${portal.id}/files`);
    const signed = portalFiles.filter((f) => f.name === 'Engagement letter (signed).pdf');
    expect(signed, JSON.stringify(portalFiles)).toHaveLength(1);
    expect(signed[0].id).not.toBe(original.id);
    return {
      file_id: signed[0].id,
      name: 'Engagement letter (signed).pdf',
      task_id: taskId,
      signed_by_email: SIGNER.email,
      signed_by_name: SIGNER.name,
      signed_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    };
  },
  'guest.invited': async (portal) => {
    const email = `zapier-${tag}-${portal.id.slice(0, 8)}@client.test`;
    await call('POST', `/portals/${portal.id}/guests`, { email, name: 'Dana Zapier' }, 201);
    return { guest_email: email, guest_name: 'Dana Zapier', invited_by: expect.any(String) };
  },
};

describe.each(EVENTS)('trigger $key ($event)', (definition) => {
  const trigger = App.triggers[definition.key];
  const path = `/hooks/${definition.key}`;
  let subscribeData;
  let portal;

  beforeAll(async () => {
    // portal.created's portal is made after subscribing, by the test itself.
    if (definition.event !== 'portal.created') portal = await newPortal(`Zapier ${definition.key} ${tag}`);
  });

  const bundle = (delivery, overrides = {}) => ({
    authData,
    subscribeData,
    inputData: {},
    cleanedRequest: JSON.parse(delivery.body),
    rawRequest: { method: 'POST', headers: zapierHeaders(delivery.headers), content: delivery.body },
    ...overrides,
  });

  it('subscribing creates a webhook for this one event at the target URL', async () => {
    const targetUrl = `${receiver.url}${path}`;
    subscribeData = await appTester(trigger.operation.performSubscribe, { authData, targetUrl, inputData: {} });
    expect(subscribeData).toMatchObject({ webhook_id: expect.any(String), secret: expect.stringMatching(/^whsec_/), url: targetUrl, events: [definition.event] });
    const { body: webhooks } = await api(authData, 'GET', '/webhooks');
    expect(webhooks.filter((w) => w.url === targetUrl)).toEqual([
      expect.objectContaining({ webhook_id: subscribeData.webhook_id, events: [definition.event], enabled: true }),
    ]);
  });

  it('the event caused through the API is delivered signed, and perform starts the Zap with it', async () => {
    if (definition.event === 'portal.created') portal = await newPortal(`Zapier ${definition.key} ${tag}`);
    const expected = await CAUSE[definition.event](portal);
    const delivery = await delivered(path, (p) => p.portal_id === portal.id, `${definition.event} of ${portal.id}`);
    expect(delivery.headers).toMatchObject({ 'x-webhook-event': definition.event, 'content-type': 'application/json' });
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({
      event: definition.event,
      event_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      portal_id: portal.id,
      portal_name: portal.name,
      external_system_ids: {},
      ...expected,
    });

    // Signed by the service with this subscription's secret: one record, the payload with its
    // event id as the record id, exactly the fields the trigger declares (less those this
    // delivery has no reason to carry).
    const records = await appTester(trigger.operation.perform, bundle(delivery));
    expect(records).toEqual([{ id: payload.event_id, ...payload }]);
    const sometimes = SOMETIMES[definition.event] ?? [];
    const declared = new Set(trigger.operation.outputFields.map((f) => f.key.split('[]')[0]).filter((k) => !sometimes.includes(k)));
    expect(Object.keys(records[0]).sort()).toEqual([...declared].sort());

    // The same delivery altered, unsigned, or signed with another secret: refused.
    const refused = { message: 'Refused a delivery without a valid Client Portals signature (X-Webhook-Signature).', code: 'invalid_signature' };
    const altered = { ...delivery, body: delivery.body.replace(portal.id, '00000000-0000-4000-8000-000000000000') };
    expect(altered.body).not.toBe(delivery.body);
    expect(await failure(appTester(trigger.operation.perform, bundle(altered)))).toMatchObject(refused);
    const { 'x-webhook-signature': _signature, ...unsigned } = delivery.headers;
    expect(await failure(appTester(trigger.operation.perform, bundle({ ...delivery, headers: unsigned })))).toMatchObject(refused);
    const otherSecret = bundle(delivery, { subscribeData: { ...subscribeData, secret: 'whsec_other' } });
    expect(await failure(appTester(trigger.operation.perform, otherSecret))).toMatchObject(refused);

    // With a portal chosen, other portals' events start nothing.
    if (definition.portalFilter !== false) {
      const other = await newPortal(`Zapier other ${definition.key} ${tag}`);
      await expect(appTester(trigger.operation.perform, bundle(delivery, { inputData: { portal_id: other.id } }))).resolves.toEqual([]);
      await expect(appTester(trigger.operation.perform, bundle(delivery, { inputData: { portal_id: portal.id } }))).resolves.toHaveLength(1);
    }
  });

  it('the test send from the webhook settings reaches the hook signed and starts no Zap', async () => {
    const before = receiver.received.length;
    const result = await call('POST', `/webhooks/${subscribeData.webhook_id}/test`, undefined, 200);
    expect(result).toMatchObject({ success: true, status_code: 200, error: null });
    const sent = receiver.received.slice(before).filter((d) => d.path === path);
    expect(sent).toHaveLength(1);
    const [ping] = sent;
    expect(JSON.parse(ping.body)).toMatchObject({ event: 'webhook.test', webhook_id: subscribeData.webhook_id, external_system_ids: {} });
    await expect(appTester(trigger.operation.perform, bundle(ping))).resolves.toEqual([]);
  });

  it('unsubscribing deletes the webhook: it is gone and receives nothing more', async () => {
    const result = await appTester(trigger.operation.performUnsubscribe, { authData, subscribeData, inputData: {} });
    expect(result).toEqual({ success: true, webhook_id: subscribeData.webhook_id });
    const { body: webhooks } = await api(authData, 'GET', '/webhooks');
    expect(webhooks.map((w) => w.webhook_id)).not.toContain(subscribeData.webhook_id);
    expect((await api(authData, 'POST', `/webhooks/${subscribeData.webhook_id}/test`)).status).toBe(404);

    // The event caused again: once the control webhook has it, its fan-out is done, and the
    // deleted webhook got no delivery of it.
    const again = await newPortal(`Zapier again ${definition.key} ${tag}`);
    const before = receiver.received.filter((d) => d.path === path).length;
    await CAUSE[definition.event](again);
    await delivered('/control', (p) => p.event === definition.event && p.portal_id === again.id, `${definition.event} of ${again.id} (control)`);
    expect(receiver.received.filter((d) => d.path === path)).toHaveLength(before);

    // Turning the Zap off after the webhook was deleted elsewhere is no error.
    await expect(appTester(trigger.operation.performUnsubscribe, { authData, subscribeData, inputData: {} })).resolves.toEqual({
      success: true,
      webhook_id: subscribeData.webhook_id,
      already_deleted: true,
    });
  });
});

describe('the triggers’ samples ("perform list") come from the list endpoints, shaped like deliveries', () => {
  const files = loopbackServer();
  let portal;
  let task;

  beforeAll(async () => {
    files.files['/letters/engagement-letter.pdf'] = { contentType: 'application/pdf', body: Buffer.from('%PDF-1.4 engagement letter') };
    portal = await appTester(App.creates.create_portal.operation.perform, { authData, inputData: { name: 'Sample Source Ltd', tags: ['samples'] } });
    const states = await appTester(App.triggers.workflow_state_list.operation.perform, { authData, inputData: {} });
    await appTester(App.creates.update_portal.operation.perform, {
      authData,
      inputData: { portal_id: portal.id, workflow_state_id: states.at(-1).id, external_system_ids: { crm: 'SAMPLE-1' } },
    });
    task = await appTester(App.creates.create_task.operation.perform, {
      authData,
      inputData: { portal_id: portal.id, title: 'Sign the engagement letter', action_type: 'Sign Document' },
    });
    await appTester(App.creates.upload_file.operation.perform, {
      authData,
      inputData: { portal_id: portal.id, file: `${files.url}/letters/engagement-letter.pdf`, task_id: task.id },
    });
    await appTester(App.creates.complete_task.operation.perform, { authData, inputData: { portal_id: portal.id, task_id: task.id } });
  });

  const list = (key, inputData = {}) => appTester(App.triggers[key].operation.performList, { authData, inputData });
  const outputKeys = (key) => App.triggers[key].operation.outputFields.map((f) => f.key.split('[]')[0]);

  it('every sample record has exactly the fields the trigger declares, as the static sample does', async () => {
    for (const { key } of EVENTS) {
      expect(Object.keys(App.triggers[key].operation.sample).sort()).toEqual([...new Set(outputKeys(key))].sort());
      for (const record of await list(key, { portal_id: portal.id })) {
        expect(Object.keys(record).sort()).toEqual([...new Set(outputKeys(key))].sort());
      }
    }
  });

  it('portal.created and portal.workflow_changed show the new portal with its state and external ids', async () => {
    const [created] = await list('portal_created');
    expect(created).toMatchObject({ event: 'portal.created', portal_id: portal.id, portal_name: 'Sample Source Ltd', tags: ['samples'], is_template: false });
    const changed = (await list('portal_workflow_changed')).find((r) => r.portal_id === portal.id);
    expect(changed).toMatchObject({ event: 'portal.workflow_changed', external_system_ids: { crm: 'SAMPLE-1' }, workflow_state_name: expect.any(String) });
  });

  it('file and task events of the chosen portal: upload, signed document, task created and completed', async () => {
    const input = { portal_id: portal.id };
    const [uploaded] = await list('file_uploaded', input);
    expect(uploaded).toMatchObject({ event: 'file.uploaded', portal_id: portal.id, name: 'engagement-letter.pdf', extension: 'pdf', size: 26, task_id: task.id });
    const [signed] = await list('file_signed', input);
    expect(signed).toMatchObject({ event: 'file.signed', file_id: uploaded.file_id, task_id: task.id, signed_at: expect.any(String) });
    const [created] = await list('task_created', input);
    expect(created).toMatchObject({ event: 'task.created', task_id: task.id, title: 'Sign the engagement letter', action_type: 'Sign Document' });
    const [completed] = await list('task_completed', input);
    expect(completed).toMatchObject({
      event: 'task.completed',
      task_id: task.id,
      status: 'Done',
      attached_files: [{ file_id: uploaded.file_id, name: 'engagement-letter.pdf' }],
    });
    // Without a portal chosen: the most recently active portals, this one among them.
    expect((await list('task_created')).map((r) => r.task_id)).toContain(task.id);
    // The portal's guests (GET /portals/{id}/guests), as their invitation announced them.
    await appTester(App.creates.invite_guests.operation.perform, { authData, inputData: { portal_id: portal.id, emails: ['sampled@client.example'], names: ['Sam Pled'] } });
    const [invited] = await list('guest_invited', input);
    const { body: guests } = await api(authData, 'GET', `/portals/${portal.id}/guests`);
    expect(invited).toMatchObject({
      event: 'guest.invited',
      portal_id: portal.id,
      guest_email: 'sampled@client.example',
      guest_name: 'Sam Pled',
      user_id: guests.find((g) => g.email === 'sampled@client.example').user_id,
    });
  });
});
