import { Compass } from 'lucide-react';
import { useNavigate } from '../lib/router';
import { Button } from './ui/button';
import { usePageTitle } from '../lib/page-title';

/** The spec's not-found screen: unknown routes and organizations the user may not see. */
export function NotFoundScreen() {
  const navigate = useNavigate();
  usePageTitle('Page not found');
  return (
    <main id="main" className="flex flex-1 items-center justify-center px-6 py-24">
      <div className="flex max-w-sm flex-col items-center text-center">
        <div className="mb-5 flex size-11 items-center justify-center rounded-full border bg-card shadow-card">
          <Compass aria-hidden className="size-5 text-muted-foreground" />
        </div>
        <h1 className="text-xl font-semibold tracking-tight">Looking for something?</h1>
        <p className="mt-2 text-muted-foreground">
          We couldn't find the page that you're looking for
        </p>
        <Button variant="primary" className="mt-6" onClick={() => navigate('/')}>
          Head back
        </Button>
      </div>
    </main>
  );
}
