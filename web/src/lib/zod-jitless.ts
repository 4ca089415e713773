import { config, locales } from 'zod/mini';

// The server's Content-Security-Policy allows no eval. zod would compile its object parsers with
// `new Function`, and its probe for whether it may is reported to the page as a policy violation even
// though zod catches the refusal; jitless parses without either. Imported first by main.tsx, before any
// parse. zod/mini brings no messages of its own: the English ones, as the server has them.
config({ jitless: true });
config(locales.en());
