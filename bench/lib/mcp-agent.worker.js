/**
 * The agent side of bench:mcp, on its own thread (its own event loop and heap), as a real
 * agent is its own process: `clients` SDK clients over Streamable HTTP. Each call is timed
 * here, from `callTool` to its parsed result, so message passing to the bench is not counted.
 *
 * workerData: { url, key, clients }. Messages in: { id, client, name, args }.
 * Messages out: { ready } once connected; { id, ms, isError, structuredContent, text }.
 */
const { parentPort, workerData } = require('node:worker_threads');
const { performance } = require('node:perf_hooks');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StreamableHTTPClientTransport } = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

async function main() {
  const clients = [];
  for (let i = 0; i < workerData.clients; i++) {
    const client = new Client({ name: 'bench', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(workerData.url), { requestInit: { headers: { Authorization: `Bearer ${workerData.key}` } } }));
    clients.push(client);
  }
  parentPort.on('message', async (msg) => {
    if (msg === 'close') {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      parentPort.close();
      return;
    }
    try {
      const t = performance.now();
      const res = await clients[msg.client].callTool({ name: msg.name, arguments: msg.args });
      const ms = performance.now() - t;
      parentPort.postMessage({ id: msg.id, ms, isError: Boolean(res.isError), structuredContent: res.structuredContent, text: res.content?.[0]?.text });
    } catch (err) {
      parentPort.postMessage({ id: msg.id, error: String(err && err.stack ? err.stack : err) });
    }
  });
  parentPort.postMessage({ ready: true });
}

main().catch((err) => parentPort.postMessage({ fatal: String(err && err.stack ? err.stack : err) }));
