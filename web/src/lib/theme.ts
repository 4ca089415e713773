import { useSyncExternalStore } from 'react';
import { readStored, writeStored } from './storage';

export type ThemePreference = 'light' | 'dark' | 'system';
export type Theme = 'light' | 'dark';

// index.html reads the same key before the first paint.
const KEY = 'meterline:theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

const listeners = new Set<() => void>();

function readPreference(): ThemePreference {
  const stored = readStored(KEY);
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

function systemTheme(): Theme {
  return typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches
    ? 'dark'
    : 'light';
}

function resolve(preference: ThemePreference): Theme {
  return preference === 'system' ? systemTheme() : preference;
}

function apply(): void {
  const theme = resolve(readPreference());
  const root = document.documentElement;
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}

function notify(): void {
  apply();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(DARK_QUERY) : null;
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY) notify();
  };
  media?.addEventListener('change', notify);
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    media?.removeEventListener('change', notify);
    window.removeEventListener('storage', onStorage);
  };
}

export function setThemePreference(preference: ThemePreference): void {
  writeStored(KEY, preference === 'system' ? null : preference);
  notify();
}

/** Applies the stored preference; called once before the app renders. */
export function initTheme(): void {
  apply();
}

const getSnapshot = () => `${readPreference()}:${resolve(readPreference())}`;

/** The stored preference and the theme it resolves to (system follows prefers-color-scheme). */
export function useTheme(): { preference: ThemePreference; theme: Theme } {
  const snapshot = useSyncExternalStore(subscribe, getSnapshot, () => 'system:light');
  const [preference, theme] = snapshot.split(':') as [ThemePreference, Theme];
  return { preference, theme };
}
