import { useSyncExternalStore } from 'react';
import type * as SonnerModule from 'sonner';
import type { ExternalToast } from 'sonner';

// Toasts answer what the user did (a saved form, a failed payment): none is shown while the page first
// loads, so sonner is fetched with the first toast instead of with the page. Each call
// is queued on the same load, so toasts keep their order; sonner's Toaster shows the toasts created
// before it subscribed, so the first one is not lost while the Toaster mounts.

type Sonner = typeof SonnerModule;

let sonner: Promise<Sonner> | null = null;
const listeners = new Set<() => void>();

/** sonner, fetched once; the Toaster mounts from then on (`useToasterWanted`). */
export function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import('sonner');
    for (const listener of listeners) listener();
  }
  return sonner;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True once a toast was asked for: app/providers mounts the Toaster then. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => sonner !== null,
    () => false,
  );
}

let lastId = 0;

type Kind = 'success' | 'error' | 'loading';

function show(kind: Kind, message: string, options?: ExternalToast): string | number {
  // The id is ours, so a caller can replace or dismiss the toast before sonner has loaded.
  lastId += 1;
  const id = options?.id ?? `toast-${lastId}`;
  void loadSonner().then(({ toast: sonnerToast }) =>
    sonnerToast[kind](message, { ...options, id }),
  );
  return id;
}

/** sonner's `toast`, for what the app shows: success, error, loading, and dismiss. */
export const toast = {
  success: (message: string, options?: ExternalToast) => show('success', message, options),
  error: (message: string, options?: ExternalToast) => show('error', message, options),
  loading: (message: string, options?: ExternalToast) => show('loading', message, options),
  dismiss: (id?: string | number) => {
    // Nothing to dismiss before the first toast.
    if (sonner) void sonner.then(({ toast: sonnerToast }) => sonnerToast.dismiss(id));
  },
};
