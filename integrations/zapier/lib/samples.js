'use strict';

// The "perform list" fallback of the triggers: recent records from the list endpoints, shaped
// like the webhook payload of the event (spec section 6 and decision D21), so that the fields a
// user maps while building a Zap are the ones live deliveries carry.

const { v1, listAll } = require('./api');

const LIMIT = 10;

const newestFirst = (key) => (a, b) => String(b[key] || '').localeCompare(String(a[key] || ''));

const common = (event, portal, entityId, occurredAt) => ({
  id: `${event}:${entityId}`,
  event,
  event_id: null,
  org_id: portal.org_id,
  portal_id: portal.id,
  portal_name: portal.name,
  external_system_ids: portal.externalSystemIds || {},
  timestamp: occurredAt,
  occurred_at: occurredAt,
});

const portals = async (z) => (await listAll(z, '/portals')).sort(newestFirst('created_at'));

/** The chosen portal, or the three with the latest activity. */
const activePortals = async (z, bundle) => {
  if (bundle.inputData && bundle.inputData.portal_id) {
    return [(await z.request({ url: v1(`/portals/${encodeURIComponent(bundle.inputData.portal_id)}`) })).data];
  }
  return (await listAll(z, '/portals')).sort(newestFirst('last_activity_at')).slice(0, 3);
};

/** The records `read` makes of each portal, the latest first. */
const perPortal = async (z, bundle, read) =>
  (await Promise.all((await activePortals(z, bundle)).map((portal) => read(portal))))
    .flat()
    .sort(newestFirst('occurred_at'))
    .slice(0, LIMIT);

const tasksOf = async (z, portal) => listAll(z, `/portals/${portal.id}/tasks`);
const filesOf = async (z, portal) => (await listAll(z, `/portals/${portal.id}/files`)).filter((f) => !f.is_folder);

const taskFields = (task) => ({
  task_id: task.id,
  title: task.title,
  action_type: task.action_type,
  due_date: task.due_date,
  status: task.status,
});

const byEvent = {
  'portal.created': async (z) =>
    (await portals(z)).slice(0, LIMIT).map((p) => ({
      ...common('portal.created', p, p.id, p.created_at),
      created_by: p.created_by,
      tags: p.tags,
      is_template: p.is_template,
    })),

  'portal.workflow_changed': async (z) =>
    (await portals(z))
      .filter((p) => p.workflowStateId)
      .slice(0, LIMIT)
      .map((p) => ({
        ...common('portal.workflow_changed', p, p.id, p.last_activity_at || p.created_at),
        workflow_state_id: p.workflowStateId,
        workflow_state_name: p.workflowStateName,
        previous_workflow_state_name: null,
      })),

  'file.uploaded': async (z, bundle) =>
    perPortal(z, bundle, async (portal) =>
      (await filesOf(z, portal)).map((f) => ({
        ...common('file.uploaded', portal, f.id, f.uploaded_at),
        file_id: f.id,
        name: f.name,
        extension: f.extension,
        size: f.size,
        content_type: f.content_type,
        uploaded_by: f.uploaded_by,
        uploaded_by_email: null,
        uploaded_by_name: null,
        task_id: f.task_id,
      })),
    ),

  // No list shows signatures: the PDFs attached to done "Sign Document" tasks come closest.
  'file.signed': async (z, bundle) =>
    perPortal(z, bundle, async (portal) => {
      const [tasks, files] = await Promise.all([tasksOf(z, portal), filesOf(z, portal)]);
      const signed = tasks.filter((t) => t.action_type === 'Sign Document' && t.status === 'Done');
      return signed.flatMap((task) =>
        files
          .filter((f) => task.attached_file_ids.includes(f.id) && f.extension === 'pdf')
          .map((f) => ({
            ...common('file.signed', portal, f.id, task.completed_at),
            file_id: f.id,
            name: f.name,
            task_id: task.id,
            signed_by_email: null,
            signed_by_name: null,
            signed_at: task.completed_at,
          })),
      );
    }),

  'task.created': async (z, bundle) =>
    perPortal(z, bundle, async (portal) =>
      (await tasksOf(z, portal)).map((t) => ({ ...common('task.created', portal, t.id, t.created_at), ...taskFields(t) })),
    ),

  'task.completed': async (z, bundle) =>
    perPortal(z, bundle, async (portal) => {
      const tasks = (await tasksOf(z, portal)).filter((t) => t.status === 'Done');
      if (tasks.length === 0) return [];
      const names = new Map((await filesOf(z, portal)).map((f) => [f.id, f.name]));
      return tasks.map((t) => ({
        ...common('task.completed', portal, t.id, t.completed_at),
        task_id: t.id,
        action_type: t.action_type,
        status: t.status,
        attached_files: t.attached_file_ids.map((id) => ({ file_id: id, name: names.get(id) || null })),
        file_id: null,
      }));
    }),

  // The guests of the chosen (or most recently active) portals, as their invitation announced them.
  'guest.invited': async (z, bundle) =>
    perPortal(z, bundle, async (portal) =>
      (await listAll(z, `/portals/${portal.id}/guests`)).map((g) => ({
        ...common('guest.invited', portal, g.user_id, g.invited_at),
        guest_email: g.email,
        guest_name: g.name,
        invited_by: null,
        user_id: g.user_id,
      })),
    ),
};

module.exports = { byEvent };
