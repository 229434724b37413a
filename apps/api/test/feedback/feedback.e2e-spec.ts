import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { EventEmitter2 } from '@nestjs/event-emitter';
import { FeedbackRecentResponseSchema, WeightsResponseSchema, type FeedbackRateResponse, type FeedbackRecordedEvent, type WeightsResponse, type WeightsUpdatedEvent } from '@sextant/contracts';
import { io, type Socket } from 'socket.io-client';
import request from 'supertest';
import { FeedbackEvents } from '../../src/modules/realtime/realtime.events';
import { bearer, createKey, KEYS_REQUIRED_ENV } from '../auth/auth-helpers';
import { callTool, connectClient, SHOP, SHOP_TASKS, textOf } from '../mcp/mcp-fixture';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { createFreshPostgresDatabase, postgresBaseUrl } from '../helpers/test-database';
import { waitFor } from '../helpers/wait';

/** A query whose right answer (the ledger) only task history finds: rating it up must move weight to the task sources. */
const TASK_QUERY = 'customers charged twice for the same payment';
const LEDGER = 'src/billing/ledger.ts';

function connect(url: string, token: string): Promise<Socket> {
  const socket = io(url, { transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const group = (w: Record<string, number>, prefix: string) => Object.entries(w).filter(([k]) => k.startsWith(prefix)).reduce((s, [, v]) => s + v, 0);

describe('feedback: ratings move the fusion weights (REST, socket, MCP)', () => {
  let t: TestApp;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let dropDb: (() => Promise<void>) | undefined;
  const keys: Record<'admin' | 'member' | 'member2' | 'reader' | 'other', string> = { admin: '', member: '', member2: '', reader: '', other: '' };
  const api = () => request(t.app.getHttpServer());
  const updates: WeightsUpdatedEvent[] = [];

  async function boot(): Promise<void> {
    t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, SEXTANT_DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }, listen: true });
    t.app.get(EventEmitter2).on(FeedbackEvents.WeightsUpdated, (e: WeightsUpdatedEvent) => updates.push(e));
  }

  async function search(key: string, query = TASK_QUERY): Promise<{ search_id: string; query_class: string; results: Array<{ id: string; path: string }> }> {
    return (await api().post('/v1/search').set(bearer(key)).send({ query, timeout_ms: 15000 }).expect(200)).body;
  }

  async function weights(key = keys.reader): Promise<WeightsResponse> {
    // Every response has the documented shape, learner parameters included.
    return WeightsResponseSchema.parse((await api().get('/v1/weights').set(bearer(key)).expect(200)).body);
  }

  const currentOf = (w: WeightsResponse, qc: string) => w.classes.find((c) => c.query_class === qc)!.current;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sextant-feedback-'));
    if (postgresBaseUrl) ({ url: databaseUrl, drop: dropDb } = await createFreshPostgresDatabase(postgresBaseUrl));
    await boot();
    keys.admin = (await createKey(t, 'shop', 'admin')).key;
    keys.member = (await createKey(t, 'shop', 'member')).key;
    keys.member2 = (await createKey(t, 'shop', 'member', 'member2')).key;
    keys.reader = (await createKey(t, 'shop', 'reader')).key;
    keys.other = (await createKey(t, 'elsewhere', 'member')).key;
    const root = makeFixtureRepo(SHOP, { git: true });
    const reg = await api().post('/v1/repos').set(bearer(keys.admin)).send({ path: root, name: 'shop' }).expect(201);
    await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`).set(bearer(keys.admin))).body.status === 'succeeded', { what: 'index job' });
    await api().post('/v1/tasks').set(bearer(keys.admin)).send({ tasks: SHOP_TASKS }).expect(201);
  }, 120_000);

  afterAll(async () => {
    // t.close() removes its own temp dir only; ours is shared across the restart.
    await t.close();
    await dropDb?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('REST: +1 on a result task history ranks first (and code search does not) moves weight to the task sources, emits weights:updated, and is stored', async () => {
    const before = currentOf(await weights(), 'conceptual');
    const s = await search(keys.member);
    expect(s.query_class).toBe('conceptual');
    const ledger = s.results.find((r) => r.path === LEDGER)!;
    expect(ledger).toBeDefined();
    updates.length = 0;

    const res = await api().post('/v1/feedback').set(bearer(keys.member)).send({ search_id: s.search_id, item_id: ledger.id, rating: 1 }).expect(200);
    const body = res.body as FeedbackRateResponse;
    expect(body.learning.outcome).toBe('updated');
    // Task history ranks the ledger first; code search at best lower down.
    const ev = Object.fromEntries(body.credit.map((c) => [c.source, c.evidence]));
    expect(ev['task.dense']).toBe(1);
    for (const src of ['file.dense', 'file.keyword', 'file.symbol']) expect(ev[src] ?? 0).toBeLessThan(1);
    expect(body.credit.reduce((a, c) => a + c.share, 0)).toBeCloseTo(1, 5);

    const after = currentOf(await weights(), 'conceptual');
    expect(after.version).toBe(before.version + 1);
    expect(group(after.normalised, 'task.')).toBeGreaterThan(group(before.normalised, 'task.'));
    expect(group(after.normalised, 'file.')).toBeLessThan(group(before.normalised, 'file.'));
    expect(updates).toEqual([expect.objectContaining({ query_class: 'conceptual', version: after.version, origin: 'feedback' })]);

    const listed = await api().get('/v1/feedback').query({ search_id: s.search_id }).set(bearer(keys.reader)).expect(200);
    expect(listed.body.ratings).toEqual([expect.objectContaining({ item_id: ledger.id, rating: 1, mine: false })]);
    expect(listed.body.items).toEqual([{ item_id: ledger.id, count: 1, positive: 1, negative: 0, mean: 1 }]);
  });

  it('replaying the same rating changes nothing; replacing +1 by -1 applies the difference; stars map to signed values', async () => {
    const s = await search(keys.member);
    const item = s.results.find((r) => r.path === LEDGER)!;
    const rate = (body: object) => api().post('/v1/feedback').set(bearer(keys.member)).send({ search_id: s.search_id, item_id: item.id, ...body }).expect(200);
    const first = (await rate({ rating: 1 })).body as FeedbackRateResponse;
    const replay = (await rate({ rating: 1 })).body as FeedbackRateResponse;
    expect(replay.learning).toMatchObject({ outcome: 'unchanged_rating', requested_delta: 0, applied_delta: 0, weights_version: first.learning.weights_version });
    expect(replay.previous_rating).toBe(1);

    const taskBefore = group(currentOf(await weights(), 'conceptual').normalised, 'task.');
    const flipped = (await rate({ rating: -1 })).body as FeedbackRateResponse;
    expect(flipped.learning).toMatchObject({ outcome: 'updated', requested_delta: -2, applied_delta: -2, weights_version: first.learning.weights_version + 1 });
    expect(group(currentOf(await weights(), 'conceptual').normalised, 'task.')).toBeLessThan(taskBefore);

    const stars = (await rate({ stars: 4 })).body as FeedbackRateResponse;
    expect(stars).toMatchObject({ rating: 0.5, stars: 4, previous_rating: -1 });
    expect(stars.learning.requested_delta).toBeCloseTo(1.5, 9);
    const listed = await api().get('/v1/feedback').query({ search_id: s.search_id }).set(bearer(keys.member)).expect(200);
    expect(listed.body.ratings).toEqual([expect.objectContaining({ rating: 0.5, stars: 4, mine: true })]);
  });

  it('refuses bad ratings: unknown search or item and another workspace’s search -> 404, out of range -> 400, reader -> 403', async () => {
    const s = await search(keys.member);
    const item = s.results[0].id;
    const post = (key: string, body: object) => api().post('/v1/feedback').set(bearer(key)).send(body);
    await post(keys.member, { search_id: '00000000-0000-4000-8000-000000000000', item_id: item, rating: 1 }).expect(404);
    await post(keys.member, { search_id: s.search_id, item_id: 'file:nope:src/none.ts', rating: 1 }).expect(404);
    await post(keys.other, { search_id: s.search_id, item_id: item, rating: 1 }).expect(404);
    for (const bad of [{ rating: 2 }, { rating: 0.5 }, { stars: 0 }, { stars: 6 }, { rating: 1, stars: 5 }, {}]) {
      await post(keys.member, { search_id: s.search_id, item_id: item, ...bad }).expect(400);
    }
    await post(keys.reader, { search_id: s.search_id, item_id: item, rating: 1 }).expect(403);
    await api().get('/v1/feedback').query({ search_id: s.search_id }).set(bearer(keys.other)).expect(404);
    // Admin-only weight changes.
    await api().put('/v1/weights').set(bearer(keys.member)).send({ query_class: 'specific', pinned: true }).expect(403);
    await api().post('/v1/weights/reset').set(bearer(keys.member)).send({}).expect(403);
  });

  it('socket: feedback:rate moves the weights and every socket of the workspace sees weights:updated; a reader gets feedback:error', async () => {
    const s = await search(keys.member2);
    const item = s.results.find((r) => r.path === LEDGER)!;
    const rater = await connect(t.url!, keys.member2);
    const watcher = await connect(t.url!, keys.reader);
    const outsider = await connect(t.url!, keys.other);
    try {
      const seen: WeightsUpdatedEvent[] = [];
      const outsiderSaw: unknown[] = [];
      watcher.on('weights:updated', (e: WeightsUpdatedEvent) => seen.push(e));
      outsider.on('weights:updated', (e: unknown) => outsiderSaw.push(e));
      const before = currentOf(await weights(), 'conceptual');
      const ack = (await rater.timeout(10_000).emitWithAck('feedback:rate', { search_id: s.search_id, item_id: item.id, rating: 1 })) as FeedbackRateResponse;
      expect(ack.learning.outcome).toBe('updated');
      await waitFor(async () => seen.length > 0, { what: 'weights:updated on the watcher socket' });
      expect(seen[0]).toMatchObject({ query_class: 'conceptual', version: before.version + 1 });
      expect(group(currentOf(await weights(), 'conceptual').normalised, 'task.')).toBeGreaterThan(group(before.normalised, 'task.'));

      const errors: Array<{ error: string }> = [];
      watcher.on('feedback:error', (e: { error: string }) => errors.push(e));
      await watcher.timeout(10_000).emitWithAck('feedback:rate', { search_id: s.search_id, item_id: item.id, rating: -1 });
      expect(errors).toEqual([expect.objectContaining({ error: 'forbidden', search_id: s.search_id })]);
      await rater.timeout(10_000).emitWithAck('feedback:rate', { search_id: s.search_id, item_id: item.id, rating: 7 });
      expect(currentOf(await weights(), 'conceptual').version).toBe(before.version + 1);
      expect(outsiderSaw).toEqual([]);
    } finally {
      for (const sock of [rater, watcher, outsider]) sock.disconnect();
    }
  });

  it('GET /v1/feedback/recent lists the workspace’s latest ratings, newest first, as the socket announced them; other workspaces see none', async () => {
    const s = await search(keys.member);
    const watcher = await connect(t.url!, keys.reader);
    try {
      const recorded: FeedbackRecordedEvent[] = [];
      watcher.on('feedback:recorded', (e: FeedbackRecordedEvent) => recorded.push(e));
      await api().post('/v1/feedback').set(bearer(keys.member)).send({ search_id: s.search_id, item_id: s.results[1].id, rating: -1 }).expect(200);
      await new Promise((r) => setTimeout(r, 10)); // distinct times, so "newest first" is well defined
      await api().post('/v1/feedback').set(bearer(keys.member)).send({ search_id: s.search_id, item_id: s.results[0].id, rating: 1 }).expect(200);
      await waitFor(() => recorded.length === 2 || undefined, { what: 'two feedback:recorded events' });
      const recent = FeedbackRecentResponseSchema.parse((await api().get('/v1/feedback/recent').query({ limit: 2 }).set(bearer(keys.reader)).expect(200)).body);
      // Same fields, newest first: the dashboard keys its activity feed on them, so a rating seen live is not listed twice.
      expect(recent.ratings).toEqual([...recorded].reverse().map(({ workspace_id: _ws, ...rest }) => rest));
      expect(recent.ratings[0]).toMatchObject({ item_id: s.results[0].id, rating: 1, principal: expect.stringMatching(/^key:/) });
      const outsider = (await api().get('/v1/feedback/recent').set(bearer(keys.other)).expect(200)).body;
      expect(outsider.ratings.some((r: { search_id: string }) => r.search_id === s.search_id)).toBe(false);
      for (const limit of [0, 101, 'x']) await api().get('/v1/feedback/recent').query({ limit }).set(bearer(keys.reader)).expect(400);
    } finally {
      watcher.disconnect();
    }
  });

  it('MCP: rate_result with a member key moves the weights; a reader key gets a tool error', async () => {
    const member: Client = await connectClient(t.url!, keys.member);
    const reader: Client = await connectClient(t.url!, keys.reader);
    try {
      // A file another source ranks well but the ledger query does not need: rating it down must lower that source.
      const s = await search(keys.member);
      const before = currentOf(await weights(), 'conceptual');
      const rated = await callTool(member, 'rate_result', { search_id: s.search_id, item_id: s.results.find((r) => r.path === LEDGER)!.id, rating: 1 });
      expect(rated.isError).toBeFalsy();
      expect(rated.structuredContent).toMatchObject({ recorded: true, rating: 1 });
      const after = currentOf(await weights(), 'conceptual');
      expect(after.version).toBe(before.version + 1);
      expect(group(after.normalised, 'task.')).toBeGreaterThan(group(before.normalised, 'task.'));

      const refused = await callTool(reader, 'rate_result', { search_id: s.search_id, item_id: s.results[0].id, rating: -1 });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/member|role|forbidden/i);
      expect(currentOf(await weights(), 'conceptual').version).toBe(after.version);
    } finally {
      await member.close();
      await reader.close();
    }
  });

  it('one principal cannot swing the weights: past the per-window cap, ratings are stored but learn nothing', async () => {
    const script = (await createKey(t, 'shop', 'member', 'script')).key;
    const s = await search(script);
    const item = s.results.find((r) => r.path === LEDGER)!;
    const outcomes: string[] = [];
    // Flipping +1/-1 asks for 1 then 2 rating units each time; the default cap is 40 units per hour.
    for (let i = 0; i < 24; i++) {
      const res = await api().post('/v1/feedback').set(bearer(script)).send({ search_id: s.search_id, item_id: item.id, rating: i % 2 === 0 ? 1 : -1 }).expect(200);
      outcomes.push(res.body.learning.outcome);
    }
    expect(outcomes.slice(0, 10).every((o) => o === 'updated')).toBe(true);
    expect(outcomes.slice(-3)).toEqual(['cap_reached', 'cap_reached', 'cap_reached']);
    const listed = await api().get('/v1/feedback').query({ search_id: s.search_id }).set(bearer(script)).expect(200);
    expect(listed.body.ratings).toEqual([expect.objectContaining({ rating: -1, mine: true })]);
    // Another member still has their own budget.
    const theirs = await search(keys.member2);
    const other = await api().post('/v1/feedback').set(bearer(keys.member2)).send({ search_id: theirs.search_id, item_id: theirs.results.find((r) => r.path === LEDGER)!.id, rating: 1 }).expect(200);
    expect(other.body.learning.outcome).toBe('updated');
  });

  it('admins can pin (ratings are stored but learn nothing) and reset to the defaults', async () => {
    const pinned = await api().put('/v1/weights').set(bearer(keys.admin)).send({ query_class: 'conceptual', pinned: true }).expect(200);
    expect(pinned.body).toMatchObject({ pinned: true, origin: 'admin' });
    const s = await search(keys.member);
    const res = await api().post('/v1/feedback').set(bearer(keys.member)).send({ search_id: s.search_id, item_id: s.results[0].id, rating: -1 }).expect(200);
    expect(res.body.learning).toMatchObject({ outcome: 'pinned', weights_version: pinned.body.version });
    const reset = await api().post('/v1/weights/reset').set(bearer(keys.admin)).send({ query_class: 'conceptual' }).expect(200);
    expect(reset.body.classes[0]).toMatchObject({ pinned: false, origin: 'reset', weights: { 'file.dense': 1, 'file.keyword': 1, 'file.symbol': 0.5, 'task.dense': 1.2, 'task.keyword': 1 } });
    const w = await weights();
    const history = w.classes.find((c) => c.query_class === 'conceptual')!.history;
    expect(history[0].version).toBe(0);
    expect(history.map((h) => h.version)).toEqual([...history.map((h) => h.version)].sort((a, b) => a - b));
    expect(w.ratings.total).toBeGreaterThanOrEqual(4);
    expect(w.ratings.by_day.length).toBeGreaterThan(0);
  });

  it('ratings and learned weights survive a restart', async () => {
    const s = await search(keys.member);
    const item = s.results.find((r) => r.path === LEDGER)!;
    const rated = (await api().post('/v1/feedback').set(bearer(keys.member)).send({ search_id: s.search_id, item_id: item.id, rating: 1 }).expect(200)).body as FeedbackRateResponse;
    const before = await weights();
    await t.app.close();
    await boot();
    const after = await weights();
    expect(currentOf(after, 'conceptual')).toEqual(currentOf(before, 'conceptual'));
    expect(currentOf(after, 'conceptual').version).toBe(rated.learning.weights_version);
    const listed = await api().get('/v1/feedback').query({ search_id: s.search_id }).set(bearer(keys.member)).expect(200);
    expect(listed.body.ratings).toEqual([expect.objectContaining({ item_id: item.id, rating: 1, mine: true })]);
    // The replay guard is durable too.
    const replay = await api().post('/v1/feedback').set(bearer(keys.member)).send({ search_id: s.search_id, item_id: item.id, rating: 1 }).expect(200);
    expect(replay.body.learning.outcome).toBe('unchanged_rating');
  });
});
