import { describe, expect, it } from 'vitest';

import App from '../index.js';
import { validateApp } from '../lib/validate.js';
import { EVENTS } from '../triggers/hooks.js';

describe('the app definition', () => {
  it('passes the platform schema validation (zapier-platform-schema), offline', () => {
    expect(validateApp()).toEqual([]);
  });

  it('is rejected by the same validation when broken, so the check above can fail', () => {
    const broken = { ...App, searchOrCreates: { find_portal_by_name: { ...App.searchOrCreates.find_portal_by_name, create: 'create_nothing' } } };
    expect(validateApp(broken).map((e) => e.property)).toContain('instance.searchOrCreates.find_portal_by_name.create');
  });

  it('is version 1.0.1, with one instant trigger per event of spec section 6', () => {
    expect(App.version).toBe('1.0.1');
    expect(EVENTS.map((e) => e.event)).toEqual([
      'portal.created',
      'portal.workflow_changed',
      'file.uploaded',
      'file.signed',
      'task.created',
      'task.completed',
      'guest.invited',
    ]);
    for (const { key } of EVENTS) expect(App.triggers[key].operation.type).toBe('hook');
    expect(Object.keys(App.creates).sort()).toEqual(
      ['complete_task', 'create_portal', 'create_task', 'invite_guests', 'update_portal', 'upload_file'].sort(),
    );
    expect(Object.keys(App.searches).sort()).toEqual(['find_portal_by_external_id', 'find_portal_by_name']);
  });
});
