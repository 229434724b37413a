import { runCli } from './cli/main';

// `node apps/api/dist/main.js` behaves like `sextant serve`.
void runCli([process.argv[0], process.argv[1], 'serve', ...process.argv.slice(2)]);
