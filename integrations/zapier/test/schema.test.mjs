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

  it('is version 1.1.0, with one instant trigger per event of spec section 6', () => {
    expect(App.version).toBe('1.1.0');
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
      ['complete_task', 'create_portal', 'create_task', 'invite_guests', 'update_portal', 'update_task', 'upload_file'].sort(),
    );
    expect(Object.keys(App.searches).sort()).toEqual(['find_file', 'find_portal_by_external_id', 'find_portal_by_name', 'find_task']);
  });
});

/** Every operation of the app with its kind, for the review checks below. */
const operations = ['triggers', 'creates', 'searches'].flatMap((kind) => Object.entries(App[kind]).map(([key, def]) => [`${kind}.${key}`, def.operation]));

/** The sample value an output field describes (`a[]b` is `b` of the items of the array `a`). */
const sampleValues = (sample, key) => {
  const [parent, child] = key.split('[]');
  if (child === undefined) return [sample[parent]];
  return (Array.isArray(sample[parent]) ? sample[parent] : []).map((item) => item[child]);
};

const TYPE_CHECKS = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  datetime: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
};

/** Output fields whose declared type does not fit their sample values (Zapier's review check D024). */
const typeMismatches = (name, op) =>
  (op.outputFields || []).flatMap((field) =>
    sampleValues(op.sample || {}, field.key)
      .filter((value) => value !== null && value !== undefined && field.type !== undefined)
      .filter((value) => {
        if (Array.isArray(value)) return !value.every(TYPE_CHECKS[field.type]);
        if (typeof value === 'object') return true;
        return !TYPE_CHECKS[field.type](value);
      })
      .map((value) => `${name}: ${field.key} is ${field.type} but the sample is ${JSON.stringify(value)}`),
  );

describe('what Zapier’s review checks', () => {
  it('has help text on every input field', () => {
    const missing = operations.flatMap(([name, op]) => (Array.isArray(op.inputFields) ? op.inputFields : []).filter((f) => !f.helpText).map((f) => `${name}: ${f.key}`));
    expect(missing).toEqual([]);
  });

  it('declares an output field for every key of every sample', () => {
    const missing = operations.flatMap(([name, op]) => {
      const keys = new Set((op.outputFields || []).map((f) => f.key.split('[]')[0]));
      return Object.keys(op.sample || {}).filter((k) => !keys.has(k)).map((k) => `${name}: ${k}`);
    });
    expect(missing).toEqual([]);
  });

  it('gives output fields the type of their sample values (D024); objects have no scalar type', () => {
    expect(operations.flatMap(([name, op]) => typeMismatches(name, op))).toEqual([]);
    expect(App.triggers.portal_created.operation.outputFields.find((f) => f.key === 'external_system_ids')).toEqual({
      key: 'external_system_ids',
      label: 'External System IDs',
      sample: { crm: 'ACME-001' },
    });
  });

  it('finds a field declared as a string over an object sample, so the check above can fail', () => {
    const op = App.triggers.portal_created.operation;
    const broken = { ...op, outputFields: op.outputFields.map((f) => (f.key === 'external_system_ids' ? { ...f, type: 'string' } : f)) };
    expect(typeMismatches('portal_created', broken)).toEqual(['portal_created: external_system_ids is string but the sample is {"crm":"ACME-001"}']);
  });
});
