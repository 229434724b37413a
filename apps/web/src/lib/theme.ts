import { useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'sextant.theme';
const ORDER: ThemeChoice[] = ['system', 'light', 'dark'];

function stored(): ThemeChoice {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** Follows `prefers-color-scheme` unless the user picked light or dark (kept in localStorage). */
export function useTheme(): [ThemeChoice, () => void] {
  const [theme, setTheme] = useState<ThemeChoice>(stored);
  useEffect(() => {
    const root = document.documentElement;
    if (theme === 'system') delete root.dataset.theme;
    else root.dataset.theme = theme;
    try {
      if (theme === 'system') window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, theme);
    } catch {
      /* storage disabled */
    }
  }, [theme]);
  return [theme, () => setTheme((t) => ORDER[(ORDER.indexOf(t) + 1) % ORDER.length])];
}
