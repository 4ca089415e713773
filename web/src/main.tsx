import './lib/zod-jitless';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/providers';
import { startFirstLoad } from './app/first-load';
import { AppRoutes } from './app/routes';
import { createQueryClient } from './data/query-client';
import { createBrowserHistory, Router } from './lib/router';
import { initTheme } from './lib/theme';
import './styles.css';

initTheme();

const queryClient = createQueryClient();
const history = createBrowserHistory();
// The reads the address determines start now, together, before the first render.
startFirstLoad(queryClient, window.location.pathname);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <AppProviders queryClient={queryClient}>
      <Router history={history}>
        <AppRoutes />
      </Router>
    </AppProviders>
  </StrictMode>,
);
