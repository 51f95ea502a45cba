'use strict';

const schemaTools = require('zapier-platform-core/src/tools/schema');

const App = require('../index');

/**
 * The errors of zapier-platform-schema (through the core's own validate command) for the compiled app (functions cleaned the way the CLI
 * does before it validates): an empty array when the definition is valid.
 */
const validateApp = (app = App) => {
  const compiled = schemaTools.prepareApp(app);
  return schemaTools.validateApp(compiled).map((e) => ({ property: e.property, message: e.message }));
};

module.exports = { validateApp };
