import request from 'supertest';
import { makeFixtureRepo } from './fixture-repo';
import { startTestApp, type TestApp } from './test-app';
import { waitFor } from './wait';

/**
 * A project whose modules' code never uses the words customers use for them, and a task history
 * that teaches those words (module i is "WORDS[i] SECOND[i]"): what the learned ranker can learn
 * and code search alone cannot.
 */
export const WORDS = ['amber', 'birch', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'harbor', 'indigo', 'juniper', 'kestrel', 'lagoon', 'marble', 'nectar', 'onyx', 'prairie', 'quartz', 'raven', 'sierra', 'tundra'];
export const SECOND = ['ledger', 'signup', 'export', 'invoice', 'upload', 'search', 'billing', 'profile', 'avatar', 'webhook', 'report', 'session', 'refund', 'coupon', 'digest', 'badge', 'locale', 'quota', 'banner', 'archive'];

/** `src/m<i>/service.py` and its test, for the first `modules` modules. */
export function vocabularyProject(modules: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < modules; i++) {
    files[`src/m${i}/service.py`] = `"""Module ${i}."""\n\ndef handle_m${i}(payload):\n    total = 0\n    for item in payload:\n        total += item.weight_${i}\n    return total\n`;
    files[`tests/test_m${i}.py`] = `from src.m${i}.service import handle_m${i}\n\ndef test_handle_m${i}():\n    assert handle_m${i}([]) == 0\n`;
  }
  return files;
}

/** `count` daily tasks, task n about module (7n mod modules); every third also touches its test. */
export function vocabularyHistory(count: number, modules: number) {
  return Array.from({ length: count }, (_, n) => {
    const i = (n * 7) % modules;
    return {
      id: `T-${n}`,
      title: `Customers report ${WORDS[i]} ${SECOND[i]} problem (${n})`,
      body: `Seen by support again; the ${WORDS[i]} flow misbehaves after the ${SECOND[i]} step.`,
      files: n % 3 === 0 ? [`src/m${i}/service.py`, `tests/test_m${i}.py`] : [`src/m${i}/service.py`],
      created_at: new Date(Date.UTC(2023, 0, 1) + n * 86_400_000).toISOString(),
    };
  });
}

/** A real app with {@link vocabularyProject} of every module indexed as repository `app`; no tasks yet. */
export async function startVocabularyApp(): Promise<TestApp> {
  const t = await startTestApp();
  const api = () => request(t.app.getHttpServer());
  const reg = await api().post('/v1/repos').send({ path: makeFixtureRepo(vocabularyProject(WORDS.length), { git: true }), name: 'app' }).expect(201);
  await waitFor(async () => (await api().get(`/v1/jobs/${reg.body.job.id}`)).body.status === 'succeeded', { what: 'index job' });
  return t;
}
