#!/usr/bin/env node
// Streams a Sextant search over socket.io and prints partial results as each source answers.
//
//   node examples/chat-client.mjs "where is the session refreshed" [http://127.0.0.1:3000]
//
// Set SEXTANT_API_KEY when the server requires keys (any non-loopback deployment).
import { io } from 'socket.io-client';

const query = process.argv[2];
const url = process.argv[3] ?? process.env.SEXTANT_URL ?? 'http://127.0.0.1:3000';
if (!query) {
  console.error('usage: node examples/chat-client.mjs "<query>" [server url]');
  process.exit(2);
}

const socket = io(url, { transports: ['websocket'], auth: process.env.SEXTANT_API_KEY ? { token: process.env.SEXTANT_API_KEY } : {}, reconnection: false });
const requestId = `cli-${Date.now()}`;
const started = performance.now();
const ms = () => `${Math.round(performance.now() - started)} ms`.padStart(7);

socket.on('connect_error', (err) => {
  console.error(`cannot connect to ${url}: ${err.message}`);
  process.exit(1);
});
socket.on('connect', () => socket.emit('search:start', { request_id: requestId, query, options: { top_k: 5 } }));
socket.on('search:partial', (p) => {
  if (p.request_id !== requestId) return;
  const top = p.results.slice(0, 3).map((r) => `${r.path}`).join(', ');
  console.log(`${ms()}  after ${p.source.padEnd(12)} (${p.sources_pending.length} pending): ${top || '(nothing yet)'}`);
});
socket.on('search:done', (d) => {
  if (d.request_id !== requestId) return;
  console.log(`${ms()}  done — search ${d.search_id}`);
  for (const r of d.results) {
    const where = r.chunk ? `${r.path}:${r.chunk.start_line + 1}-${r.chunk.end_line + 1}` : r.path;
    const why = r.explain.related_tasks[0] ? `  (past work: ${r.explain.related_tasks[0].title})` : '';
    console.log(`  ${r.rank}. ${where}  [${r.explain.sources.map((s) => s.source).join(', ')}]${why}`);
  }
  if (d.limits.length) console.log(`  limits: ${d.limits.join('; ')}`);
  socket.close();
});
socket.on('search:error', (e) => {
  console.error(`search failed: ${e.message}`);
  socket.close();
  process.exitCode = 1;
});
