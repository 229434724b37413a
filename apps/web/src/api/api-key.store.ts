/**
 * The API key the dashboard sends, kept in localStorage so a teammate enters it once per
 * browser. Components read it with `useApiKey()`; the REST client and the socket read
 * `getApiKey()`. Local mode (loopback server) needs no key at all.
 */
import { useSyncExternalStore } from 'react';

const STORAGE_KEY = 'sextant.apiKey';
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled (private mode policies): the key lives for this page only
  }
}

let current: string | null = typeof window === 'undefined' ? null : read();

export function getApiKey(): string | null {
  return current;
}

export function setApiKey(key: string | null): void {
  current = key;
  try {
    if (key) window.localStorage.setItem(STORAGE_KEY, key);
    else window.localStorage.removeItem(STORAGE_KEY);
  } catch {
    /* see read() */
  }
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab entering or forgetting the key applies here too.
  const onStorage = (e: StorageEvent) => {
    if (e.key !== STORAGE_KEY) return;
    current = e.newValue;
    listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useApiKey(): string | null {
  return useSyncExternalStore(subscribe, getApiKey, () => null);
}

/** Keys look like `sxt_<8 hex>_<40 base62>`; checked before a round trip to give a precise message. */
export function apiKeyFormatProblem(key: string): string | null {
  const k = key.trim();
  if (!k) return 'Enter a key.';
  if (!k.startsWith('sxt_')) return 'Sextant keys start with "sxt_".';
  if (!/^sxt_[0-9a-f]{8}_[A-Za-z0-9]{32,128}$/.test(k)) return 'That does not look like a whole key (sxt_ + 8 hex characters, an underscore and the secret).';
  return null;
}
