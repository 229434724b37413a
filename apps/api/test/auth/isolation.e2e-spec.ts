import * as fc from 'fast-check';
import request from 'supertest';
import { makeFixtureRepo } from '../helpers/fixture-repo';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { waitFor } from '../helpers/wait';
import { bearer, createKey, ensureWorkspace, KEYS_REQUIRED_ENV } from './auth-helpers';

type Http = ReturnType<typeof request>;
type Side = 'A' | 'B';

interface Tenant {
  slug: string;
  workspaceId: string;
  marker: string;
  root: string;
  repoId: string;
  jobIds: string[];
  taskIds: string[];
  keys: { admin: string; member: string; reader: string; adminId: string; memberId: string; readerId: string };
}

/**
 * Two workspaces, each with a repository, index jobs and tasks. Random sequences of
 * reads, searches, task reads, index requests (and ratings, when that route exists)
 * through REST with either workspace's keys never return the other workspace's data,
 * and naming the other workspace's ids gets 404 (or 403 for a role that may not act).
 */
describe('workspace isolation over REST (property)', () => {
  let t: TestApp;
  let http: Http;
  const tenants = {} as Record<Side, Tenant>;
  let routes: { search: boolean; tasks: boolean; rating?: string };

  async function setUpTenant(side: Side, marker: string): Promise<Tenant> {
    const slug = `iso-${side.toLowerCase()}`;
    const workspaceId = await ensureWorkspace(t, slug);
    const [admin, member, reader] = [await createKey(t, slug, 'admin'), await createKey(t, slug, 'member'), await createKey(t, slug, 'reader')];
    const root = makeFixtureRepo(
      {
        [`src/${marker}.ts`]: `/** ${marker} keeps the ${marker} ledger. */\nexport function ${marker}Handler(input: string): string {\n  return input + '${marker}';\n}\n`,
        'README.md': `# ${marker}\n\nThe ${marker} service.\n`,
      },
      { git: true, prefix: `sextant-iso-${side}-` },
    );
    const repo = await http.post('/v1/repos').set(bearer(admin.key)).send({ path: root, name: `${marker}-repo` }).expect(201);
    const jobId: string = repo.body.job.id;
    await waitFor(async () => (await http.get(`/v1/jobs/${jobId}`).set(bearer(reader.key))).body.status === 'succeeded', { what: `index job of ${slug}`, timeoutMs: 60_000 });
    const taskIds: string[] = [];
    if (routes.tasks) {
      await http
        .post('/v1/tasks')
        .set(bearer(member.key))
        .send({ tasks: [{ id: `${marker}-1`, title: `Fix the ${marker} ledger rounding`, body: `${marker} totals were off`, files: [`src/${marker}.ts`] }] })
        .expect((res) => expect([200, 201]).toContain(res.status));
      const list = await http.get('/v1/tasks').set(bearer(reader.key)).expect(200);
      taskIds.push(...list.body.tasks.map((x: { id: string }) => x.id));
      expect(taskIds).toHaveLength(1);
    }
    return {
      slug,
      workspaceId,
      marker,
      root,
      repoId: repo.body.id,
      jobIds: [jobId],
      taskIds,
      keys: { admin: admin.key, member: member.key, reader: reader.key, adminId: admin.id, memberId: member.id, readerId: reader.id },
    };
  }

  beforeAll(async () => {
    t = await startTestApp({ env: { ...KEYS_REQUIRED_ENV, SEXTANT_RATE_LIMIT: '100000' } });
    http = request(t.app.getHttpServer());
    const bootstrapKey = (await createKey(t, 'default', 'admin')).key;
    const doc = (await http.get('/docs/openapi.json').set(bearer(bootstrapKey)).expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    routes = {
      search: Boolean(doc.paths['/v1/search']?.post),
      tasks: Boolean(doc.paths['/v1/tasks']?.get && doc.paths['/v1/tasks']?.post),
      rating: Object.keys(doc.paths).find((p) => /feedback|rating/.test(p) && doc.paths[p].post && !p.includes('{')),
    };
    for (const [name, present] of Object.entries({ 'POST /v1/search': routes.search, 'GET|POST /v1/tasks': routes.tasks, 'rating route': Boolean(routes.rating) })) {
      if (!present) console.warn(`[partial] ${name} is not in this build; the isolation property runs without it`);
    }
    tenants.A = await setUpTenant('A', 'alphaZq');
    tenants.B = await setUpTenant('B', 'bravoXk');
  }, 180_000);
  afterAll(() => t.close());

  /** Everything that identifies `other`'s data; none may appear in a response to `self`. */
  const secretsOf = (other: Tenant): string[] => [other.workspaceId, other.slug, other.marker, other.root, other.repoId, ...other.jobIds, ...other.taskIds, other.keys.adminId, other.keys.memberId, other.keys.readerId];

  it('sanity: each workspace finds its own data through the same routes', async () => {
    for (const side of ['A', 'B'] as const) {
      const me = tenants[side];
      const repos = await http.get('/v1/repos').set(bearer(me.keys.reader)).expect(200);
      expect(repos.body.repositories.map((r: { id: string }) => r.id)).toEqual([me.repoId]);
      if (routes.search) {
        const res = await http.post('/v1/search').set(bearer(me.keys.reader)).send({ query: `${me.marker}Handler` }).expect(200);
        expect(JSON.stringify(res.body)).toContain(`src/${me.marker}.ts`);
      }
    }
  });

  type Role = 'admin' | 'member' | 'reader';
  type Op =
    | { kind: 'listRepos' | 'listJobs' | 'listWorkspaces' | 'me' | 'listKeys' | 'listTasks' }
    | { kind: 'getRepo' | 'getJob' | 'index' | 'getTask'; target: 'own' | 'other' }
    | { kind: 'search' | 'taskQuery'; about: 'own' | 'other' }
    | { kind: 'rate'; target: 'own' | 'other' };
  const opArb: fc.Arbitrary<{ side: Side; role: Role; op: Op }> = fc.record({
    side: fc.constantFrom<Side>('A', 'B'),
    role: fc.constantFrom<Role>('admin', 'member', 'reader'),
    op: fc.oneof(
      fc.record({ kind: fc.constantFrom('listRepos' as const, 'listJobs' as const, 'listWorkspaces' as const, 'me' as const, 'listKeys' as const, 'listTasks' as const) }),
      fc.record({ kind: fc.constantFrom('getRepo' as const, 'getJob' as const, 'index' as const, 'getTask' as const), target: fc.constantFrom('own' as const, 'other' as const) }),
      fc.record({ kind: fc.constantFrom('search' as const, 'taskQuery' as const), about: fc.constantFrom('own' as const, 'other' as const) }),
      fc.record({ kind: fc.constant('rate' as const), target: fc.constantFrom('own' as const, 'other' as const) }),
    ),
  });

  /** What the request itself names (a 404 may echo the id it was asked for; that reveals nothing). */
  function named(side: Side, op: Op): string[] {
    const other = tenants[side === 'A' ? 'B' : 'A'];
    if (!('target' in op) || op.target !== 'other') return [];
    return { getRepo: [other.repoId], index: [other.repoId], getJob: [other.jobIds[0]], getTask: [other.taskIds[0]], rate: [other.repoId] }[op.kind] ?? [];
  }

  async function run(side: Side, role: Role, op: Op): Promise<{ status: number; body: unknown; expectStatus?: number[] } | undefined> {
    const me = tenants[side];
    const other = tenants[side === 'A' ? 'B' : 'A'];
    const auth = bearer(me.keys[role]);
    const pick = (target: 'own' | 'other') => (target === 'own' ? me : other);
    const send = async (r: request.Test, expectStatus?: number[]) => {
      const res = await r.set(auth);
      return { status: res.status, body: res.body as unknown, expectStatus };
    };
    switch (op.kind) {
      case 'listRepos':
        return send(http.get('/v1/repos'), [200]);
      case 'listJobs':
        return send(http.get('/v1/jobs'), [200]);
      case 'listWorkspaces':
        return send(http.get('/v1/workspaces'), [200]);
      case 'me':
        return send(http.get('/v1/auth/me'), [200]);
      case 'listKeys':
        return send(http.get('/v1/keys'), [role === 'admin' ? 200 : 403]);
      case 'listTasks':
        return routes.tasks ? send(http.get('/v1/tasks'), [200]) : undefined;
      case 'getRepo':
        return send(http.get(`/v1/repos/${pick(op.target).repoId}`), op.target === 'own' ? [200] : [404]);
      case 'getJob':
        return send(http.get(`/v1/jobs/${pick(op.target).jobIds[0]}`), op.target === 'own' ? [200] : [404]);
      case 'getTask':
        if (!routes.tasks) return undefined;
        return send(http.get(`/v1/tasks/${pick(op.target).taskIds[0]}`), op.target === 'own' ? [200] : [404]);
      case 'index': {
        const expected = role === 'reader' ? [403] : op.target === 'own' ? [202] : [404];
        const res = await send(http.post(`/v1/repos/${pick(op.target).repoId}/index`).send({}), expected);
        if (res.status === 202) me.jobIds.push((res.body as { id: string }).id);
        return res;
      }
      case 'search':
        return routes.search ? send(http.post('/v1/search').send({ query: `${pick(op.about).marker}Handler ledger` }), [200]) : undefined;
      case 'taskQuery':
        return routes.tasks ? send(http.get('/v1/tasks').query({ query: `${pick(op.about).marker} ledger` }), [200]) : undefined;
      case 'rate':
        if (!routes.rating) return undefined;
        // Whatever the body shape, a reader is refused and nobody may touch the other workspace's results.
        return send(http.post(routes.rating).send({ result_id: `file:${pick(op.target).repoId}:src/${pick(op.target).marker}.ts`, rating: 1, query: 'x' }), role === 'reader' ? [403] : undefined);
    }
  }

  it('random sequences of requests with both workspaces’ keys never return the other workspace’s data', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        for (const { side, role, op } of ops) {
          const res = await run(side, role, op);
          if (!res) continue;
          const other = tenants[side === 'A' ? 'B' : 'A'];
          // A search echoes its own query text, which may name the other workspace's marker.
          const text = JSON.stringify(res.body, (k, v) => (k === 'query' && typeof v === 'string' ? undefined : v));
          const echoed = named(side, op);
          for (const secret of secretsOf(other).filter((x) => !echoed.includes(x))) {
            if (text.includes(secret)) throw new Error(`${side}/${role} ${JSON.stringify(op)} leaked "${secret}" of the other workspace: ${text.slice(0, 500)}`);
          }
          if (res.expectStatus && !res.expectStatus.includes(res.status)) {
            throw new Error(`${side}/${role} ${JSON.stringify(op)} answered ${res.status}, expected ${res.expectStatus.join('|')}: ${text.slice(0, 300)}`);
          }
        }
      }),
      { numRuns: 30 },
    );
  }, 240_000);
});
