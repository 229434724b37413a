import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { apiKeyFormatProblem, setApiKey } from '../api/api-key.store';
import { errorText } from '../api/client';
import { fetchMe, queryKeys } from '../api/queries';
import { BrandMark } from './icons';

/**
 * Shown when the server needs an API key (not in local mode) and none, or a refused one,
 * is stored. The key is checked with `GET /v1/auth/me` before it is kept in localStorage.
 */
export function KeyPrompt({ refused }: { refused: boolean }) {
  const qc = useQueryClient();
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const k = key.trim();
    const problem = apiKeyFormatProblem(k);
    if (problem) return setError(problem);
    setChecking(true);
    setError(null);
    try {
      const me = await fetchMe(k);
      qc.setQueryData([...queryKeys.me, k], me);
      setApiKey(k);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setChecking(false);
    }
  };
  return (
    <main className="key-prompt">
      <form className="card" onSubmit={submit} aria-labelledby="key-title">
        <h1 id="key-title">
          <BrandMark /> Sextant
        </h1>
        <p>{refused ? 'The stored API key was refused (revoked or from another server). Enter a valid key.' : 'This server requires an API key.'}</p>
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" value={key} onChange={(e) => setKey(e.target.value)} placeholder="sxt_…" autoComplete="off" spellCheck={false} autoFocus aria-describedby="key-help" aria-invalid={Boolean(error)} />
        <p id="key-help" className="muted small">
          Ask an admin for one (<code>sextant keys create --role member --name you</code>). It is stored in this browser (localStorage) and sent as <code>Authorization: Bearer …</code>.
        </p>
        {error && (
          <p className="text-error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={checking}>
          {checking ? 'Checking…' : 'Use this key'}
        </button>
      </form>
    </main>
  );
}
