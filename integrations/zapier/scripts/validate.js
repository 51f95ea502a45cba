'use strict';

// `npm run validate`: the platform's schema validation of the app definition, offline (what
// `zapier validate --without-style` checks, without the CLI or a network).
const { validateApp } = require('../lib/validate');

const errors = validateApp();
if (errors.length) {
  for (const error of errors) process.stderr.write(`${error.property}: ${error.message}\n`);
  process.exit(1);
}
process.stdout.write('The app definition is valid.\n');
