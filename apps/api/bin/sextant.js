#!/usr/bin/env node
'use strict';
const path = require('node:path');
const fs = require('node:fs');
const entry = path.join(__dirname, '..', 'dist', 'cli', 'main.js');
if (!fs.existsSync(entry)) {
  process.stderr.write('sextant: not built yet. Run `npm run build` (or `npm start`) in the repository root first.\n');
  process.exit(1);
}
require(entry).runCli(process.argv);
