import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Switch } from 'wouter';
import { describe, expect, it } from 'vitest';
import {
  createMemoryHistory,
  Link,
  Navigate,
  Router,
  useLocation,
  useParams,
  useSearchParams,
} from './router';

function Where() {
  const { pathname, search, hash } = useLocation();
  return <p data-testid="where">{`${pathname}${search}${hash}`}</p>;
}

function renderAt(path: string, routes: React.ReactNode) {
  const history = createMemoryHistory(path);
  const user = userEvent.setup();
  render(
    <Router history={history}>
      {routes}
      <Where />
    </Router>,
  );
  return { history, user, where: () => screen.getByTestId('where').textContent };
}

describe('lib/router', () => {
  it('links to parts of a URL: the current path, with the query and anchor marked', async () => {
    const { user, where } = renderAt(
      '/org/acme-pro/billing?panel=costControl',
      <>
        <Link to={{ hash: 'address' }}>Address</Link>
        <Link to={{ search: 'panel=subscriptionPlan' }}>Plan</Link>
        <Link to="/org/acme-free/usage">Usage</Link>
      </>,
    );
    expect(screen.getByRole('link', { name: 'Address' })).toHaveAttribute(
      'href',
      '/org/acme-pro/billing#address',
    );
    expect(screen.getByRole('link', { name: 'Plan' })).toHaveAttribute(
      'href',
      '/org/acme-pro/billing?panel=subscriptionPlan',
    );
    await user.click(screen.getByRole('link', { name: 'Address' }));
    expect(where()).toBe('/org/acme-pro/billing#address');
    await user.click(screen.getByRole('link', { name: 'Usage' }));
    expect(where()).toBe('/org/acme-free/usage');
  });

  it('matches paths with decoded parameters, and the rest of a path', () => {
    function Params() {
      return <p>{JSON.stringify(useParams())}</p>;
    }
    renderAt(
      '/partners/vercel/installations/icfg%20x/invoices/2',
      <Switch>
        <Route path="/partners/vercel/installations/:installationId/*?">
          <Params />
        </Route>
      </Switch>,
    );
    expect(screen.getByText(/installationId/)).toHaveTextContent(
      '"installationId":"icfg x","*":"invoices/2"',
    );
  });

  it('sets the query on the same path, adding an entry or replacing it', async () => {
    function Query() {
      const [params, setParams] = useSearchParams();
      return (
        <>
          <p>{params.get('panel') ?? 'none'}</p>
          <button
            type="button"
            onClick={() =>
              setParams((previous) => {
                const next = new URLSearchParams(previous);
                next.set('panel', 'costControl');
                return next;
              })
            }
          >
            Open
          </button>
          <button type="button" onClick={() => setParams(new URLSearchParams(), { replace: true })}>
            Clear
          </button>
        </>
      );
    }
    const { history, user, where } = renderAt('/org/acme-pro/billing#invoices', <Query />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(where()).toBe('/org/acme-pro/billing?panel=costControl');
    expect(screen.getByText('costControl')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(where()).toBe('/org/acme-pro/billing');
    expect(history.entries).toEqual(['/org/acme-pro/billing#invoices', '/org/acme-pro/billing']);
  });

  it('redirects in place with Navigate replace', () => {
    const { history, where } = renderAt('/', <Navigate replace to="/org/acme-pro" />);
    expect(where()).toBe('/org/acme-pro');
    expect(history.entries).toEqual(['/org/acme-pro']);
  });
});
