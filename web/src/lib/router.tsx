import {
  createContext,
  createElement,
  use,
  useContext,
  useEffect,
  useMemo,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { Router as WouterRouter, useParams as useWouterParams } from 'wouter';

// The app's routing words over wouter (React Router's data router was an eighth of
// the billing page's JavaScript, wouter is a fiftieth of it). wouter matches the paths (app/routes);
// this file keeps the location (pathname, query and anchor) in a history the app and its tests share,
// and gives the hooks and components the pages use.

export interface Location {
  pathname: string;
  /** "" or "?…" */
  search: string;
  /** "" or "#…" */
  hash: string;
}

export interface NavigateOptions {
  /** Replace the current entry instead of adding one (no way back to it). */
  replace?: boolean;
}

/** A URL, or parts of one: a missing pathname is the current one, a missing query or anchor empty. */
export type To = string | Partial<Location>;

/** Where the app is and how it moves: the browser's history, or one in memory for tests. */
export interface History {
  location(): Location;
  subscribe(listener: () => void): () => void;
  navigate(to: string, options?: NavigateOptions): void;
}

function parseUrl(url: string): Location {
  const parsed = new URL(url, 'http://localhost');
  return { pathname: parsed.pathname, search: parsed.search, hash: parsed.hash };
}

function hrefOf({ pathname, search, hash }: Location): string {
  return `${pathname}${search}${hash}`;
}

/** The window's location: pushState and replaceState, popstate and hashchange. */
export function createBrowserHistory(): History {
  const listeners = new Set<() => void>();
  let current = parseUrl(window.location.href);
  const notify = () => {
    for (const listener of listeners) listener();
  };
  window.addEventListener('popstate', notify);
  window.addEventListener('hashchange', notify);
  return {
    location() {
      const { pathname, search, hash } = window.location;
      if (pathname !== current.pathname || search !== current.search || hash !== current.hash) {
        current = { pathname, search, hash };
      }
      return current;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate(to, options) {
      window.history[options?.replace ? 'replaceState' : 'pushState'](null, '', to);
      notify();
    },
  };
}

/** A history in memory, starting at `initial` (tests). */
export function createMemoryHistory(initial: string): History & { entries: string[] } {
  const listeners = new Set<() => void>();
  const entries = [initial];
  let current = parseUrl(initial);
  return {
    entries,
    location: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate(to, options) {
      const next = parseUrl(new URL(to, `http://localhost${hrefOf(current)}`).href);
      if (options?.replace) entries[entries.length - 1] = hrefOf(next);
      else entries.push(hrefOf(next));
      current = next;
      for (const listener of listeners) listener();
    },
  };
}

const HistoryContext = createContext<History | null>(null);

function useHistory(): History {
  const history = useContext(HistoryContext);
  if (!history) throw new Error('A route hook was used outside <Router>');
  return history;
}

/** The current location; components re-render when it changes. */
export function useLocation(): Location {
  const history = useHistory();
  return useSyncExternalStore(history.subscribe, history.location, history.location);
}

function useWouterLocation(): [string, (to: string, options?: NavigateOptions) => void] {
  const history = useHistory();
  return [useLocation().pathname, history.navigate];
}

function useWouterSearch(): string {
  return useLocation().search;
}

/** Gives the routes below a history: the browser's in the app, one in memory in tests. */
export function Router({ history, children }: { history: History; children: ReactNode }) {
  return (
    <HistoryContext value={history}>
      <WouterRouter hook={useWouterLocation} searchHook={useWouterSearch}>
        {children}
      </WouterRouter>
    </HistoryContext>
  );
}

/** "x" and "?x" are the same query, "x" and "#x" the same anchor; "?" and "#" alone are none. */
function prefixed(part: string | undefined, mark: '?' | '#'): string {
  if (!part || part === mark) return '';
  return part.startsWith(mark) ? part : `${mark}${part}`;
}

function resolve(to: To, from: Location): string {
  if (typeof to === 'string') return to;
  return `${to.pathname ?? from.pathname}${prefixed(to.search, '?')}${prefixed(to.hash, '#')}`;
}

/** Moves to `to`; a string is taken as written (absolute, or relative to the current URL). */
export function useNavigate(): (to: To, options?: NavigateOptions) => void {
  const history = useHistory();
  return (to, options) => history.navigate(resolve(to, history.location()), options);
}

/** The current query, and a setter that moves to the same path with another query. */
export function useSearchParams(): [
  URLSearchParams,
  (
    next: URLSearchParams | ((previous: URLSearchParams) => URLSearchParams),
    options?: NavigateOptions,
  ) => void,
] {
  const history = useHistory();
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const setParams = (
    next: URLSearchParams | ((previous: URLSearchParams) => URLSearchParams),
    options?: NavigateOptions,
  ) => {
    const current = history.location();
    const updated = typeof next === 'function' ? next(new URLSearchParams(current.search)) : next;
    const query = updated.toString();
    history.navigate(`${current.pathname}${query ? `?${query}` : ''}`, options);
  };
  return [params, setParams];
}

/** The path's parameters (`:slug`, and `*` for the rest of a path), decoded. */
export function useParams(): Record<string, string | undefined> {
  const raw = useWouterParams() as Record<string, string | undefined>;
  const decoded: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    try {
      decoded[name] = decodeURIComponent(value);
    } catch {
      decoded[name] = value;
    }
  }
  return decoded;
}

/** Moves to `to` once rendered. */
export function Navigate({ to, replace }: { to: To; replace?: boolean }) {
  const history = useHistory();
  const target = resolve(to, history.location());
  useEffect(() => {
    history.navigate(target, { replace });
  }, [history, target, replace]);
  return null;
}

/** A link within the app: a real `<a href>`, followed without a page load on a plain click. */
export function Link({
  to,
  replace,
  onClick,
  ref,
  ...props
}: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: To;
  replace?: boolean;
  ref?: React.Ref<HTMLAnchorElement>;
}) {
  const history = useHistory();
  const href = resolve(to, useLocation());
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey ||
      (props.target && props.target !== '_self')
    ) {
      return;
    }
    event.preventDefault();
    history.navigate(href, { replace });
  };
  return <a {...props} ref={ref} href={href} onClick={follow} />;
}

/**
 * A page fetched when first rendered (its own chunk); `preload` fetches it ahead, and once fetched
 * it renders at once (tests preload every page).
 */
export function lazyPage<P extends object>(
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> & { preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () =>
    (loading ??= load().then((component) => {
      loaded = component;
      return component;
    }));
  function LazyPage(props: P) {
    const component = loaded ?? use(preload());
    return createElement(component, props);
  }
  return Object.assign(LazyPage, { preload });
}
