import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { clearRecordedEvents } from '../src/lib/analytics';

// jsdom has no layout: scrolling is a no-op that tests can spy on.
window.scrollTo = (() => undefined) as typeof window.scrollTo;

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  clearRecordedEvents();
});
