import { beforeAll, describe, expect, it } from 'vitest';

import { sign } from '../lib/signature.js';
import { EVENTS } from '../triggers/hooks.js';
import { App, api, appTester, connect, failure, loopbackServer, zapierHeaders } from './support.mjs';

// Each instant trigger against the real service: subscribing creates a webhook for its one event
// pointing at the target URL (a loopback receiver standing in for Zapier's hook URL), the
// webhook's test send (POST /webhooks/{id}/test, delivered at once) reaches the receiver signed,
// perform checks the signature of what was received, and unsubscribing deletes the webhook.
//
// Deliveries of the events themselves go through the job engine (Inngest), which has no test-side
// executor yet: until it lands, the delivered request is the test send.

const receiver = loopbackServer();
let authData;

beforeAll(async () => {
  ({ authData } = await connect());
});

async function testSend(webhookId, path) {
  const before = receiver.received.length;
  const { status, body } = await api(authData, 'POST', `/webhooks/${webhookId}/test`);
  expect(status).toBe(200);
  expect(body).toMatchObject({ success: true, status_code: 200, error: null });
  const delivered = receiver.received.slice(before);
  expect(delivered.map((d) => d.path)).toEqual([path]);
  return delivered[0];
}

describe.each(EVENTS)('trigger $key ($event)', (definition) => {
  const trigger = App.triggers[definition.key];
  const path = `/hooks/${definition.key}`;
  let subscribeData;

  it('subscribing creates a webhook for this one event at the target URL', async () => {
    const targetUrl = `${receiver.url}${path}`;
    subscribeData = await appTester(trigger.operation.performSubscribe, { authData, targetUrl, inputData: {} });
    expect(subscribeData).toMatchObject({ webhook_id: expect.any(String), secret: expect.stringMatching(/^whsec_/), url: targetUrl, events: [definition.event] });
    const { body: webhooks } = await api(authData, 'GET', '/webhooks');
    expect(webhooks.filter((w) => w.url === targetUrl)).toEqual([
      expect.objectContaining({ webhook_id: subscribeData.webhook_id, events: [definition.event], enabled: true }),
    ]);
  });

  it('a delivery to the hook is accepted only with a valid signature', async () => {
    const delivery = await testSend(subscribeData.webhook_id, path);
    const payload = JSON.parse(delivery.body);
    expect(payload).toMatchObject({ event: 'webhook.test', webhook_id: subscribeData.webhook_id, external_system_ids: {} });
    const bundle = (content, headers = delivery.headers) => ({
      authData,
      subscribeData,
      inputData: {},
      cleanedRequest: JSON.parse(content),
      rawRequest: { method: 'POST', headers: zapierHeaders(headers), content },
    });

    // Signed by the service with this subscription's secret: accepted; a test ping starts no Zap.
    await expect(appTester(trigger.operation.perform, bundle(delivery.body))).resolves.toEqual([]);

    // The same delivery altered, unsigned, or signed with another secret: refused.
    const altered = delivery.body.replace('"webhook.test"', `"${definition.event}"`);
    const refused = { message: 'Refused a delivery without a valid Client Portals signature (X-Webhook-Signature).', code: 'invalid_signature' };
    expect(await failure(appTester(trigger.operation.perform, bundle(altered)))).toMatchObject(refused);
    const { 'x-webhook-signature': _signature, ...unsigned } = delivery.headers;
    expect(await failure(appTester(trigger.operation.perform, bundle(delivery.body, unsigned)))).toMatchObject(refused);
    const otherSecret = { ...bundle(delivery.body), subscribeData: { ...subscribeData, secret: 'whsec_other' } };
    expect(await failure(appTester(trigger.operation.perform, otherSecret))).toMatchObject(refused);

    // The trigger's own event (until the job engine's test executor delivers real ones): the
    // received delivery renamed to this event for a portal and signed again with the
    // subscription's secret starts the Zap with the payload; the portal filter drops other portals.
    const own = JSON.stringify({ ...payload, event: definition.event, portal_id: 'portal-a', portal_name: 'A' });
    const ownHeaders = { ...delivery.headers, 'x-webhook-signature': sign(subscribeData.secret, own) };
    await expect(appTester(trigger.operation.perform, bundle(own, ownHeaders))).resolves.toEqual([
      { id: payload.event_id, ...JSON.parse(own) },
    ]);
    if (definition.key !== 'portal_created') {
      const filtered = (portalId) => ({ ...bundle(own, ownHeaders), inputData: { portal_id: portalId } });
      await expect(appTester(trigger.operation.perform, filtered('portal-b'))).resolves.toEqual([]);
      await expect(appTester(trigger.operation.perform, filtered('portal-a'))).resolves.toHaveLength(1);
    }
  });

  it('unsubscribing deletes the webhook: it is gone and receives nothing more', async () => {
    const result = await appTester(trigger.operation.performUnsubscribe, { authData, subscribeData, inputData: {} });
    expect(result).toEqual({ success: true, webhook_id: subscribeData.webhook_id });
    const { body: webhooks } = await api(authData, 'GET', '/webhooks');
    expect(webhooks.map((w) => w.webhook_id)).not.toContain(subscribeData.webhook_id);
    expect((await api(authData, 'POST', `/webhooks/${subscribeData.webhook_id}/test`)).status).toBe(404);
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
    // No list endpoint shows invitations: the editor falls back to the static sample.
    expect(await list('guest_invited', input)).toEqual([]);
  });
});
