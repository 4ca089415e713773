/** @jsxRuntime automatic */
/** @jsxImportSource react */
import {
  emailOutboxQuerySchema,
  formatInvoiceDateHour,
  type EmailOutboxList,
} from '@meterline/domain';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { z } from 'zod';
import type { Db } from '../db/database.ts';
import { HttpError } from '../plugins/errors.ts';
import { getOutboxEmail, listOutbox } from '../repositories/email-outbox.ts';
import { renderEmail } from '../services/notifications/render-email.tsx';
import { payLinkSecret } from '../repositories/pay-links.ts';

// The mailbox page (product decisions §12): in development, every billing message the built-in outbox
// holds, listed and shown as HTML and as text. Not registered in production mode.

const PAGE_STYLE = `
  body { font: 14px/1.5 system-ui, sans-serif; margin: 0; color: #1f2937; background: #f9fafb; }
  @media (prefers-color-scheme: dark) { body { color: #e5e7eb; background: #111827; }
    a { color: #93c5fd; } table, th, td, pre, .card { border-color: #374151 !important; background: #1f2937 !important; } }
  main { max-width: 960px; margin: 0 auto; padding: 24px 16px; }
  h1 { font-size: 20px; margin: 0 0 4px; } p.hint { margin: 0 0 16px; color: #6b7280; }
  table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #e5e7eb; }
  th, td { text-align: left; padding: 8px 10px; border-bottom: 1px solid #e5e7eb; vertical-align: top; }
  th { font-size: 12px; color: #6b7280; font-weight: 600; }
  .card { background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 16px; margin-bottom: 16px; }
  iframe { width: 100%; height: 640px; border: 1px solid #e5e7eb; border-radius: 8px; background: #fff; }
  pre { white-space: pre-wrap; background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; padding: 16px; }
  @media (max-width: 600px) { .wide { display: none; } }
`;

function Page({ title, children }: { title: string; children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Meterline mailbox`}</title>
        <style>{PAGE_STYLE}</style>
      </head>
      <body>
        <main>{children}</main>
      </body>
    </html>
  );
}

function MailboxList({ list }: { list: EmailOutboxList }) {
  return (
    <Page title="Mailbox">
      <h1>Mailbox</h1>
      <p className="hint">
        Billing mail kept by the built-in outbox (development only), newest first. Filter with ?to=
        an address.
      </p>
      {list.emails.length === 0 ? (
        <p className="card">No messages yet.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">To</th>
              <th scope="col">Subject</th>
              <th scope="col" className="wide">
                Event
              </th>
              <th scope="col" className="wide">
                Written
              </th>
              <th scope="col">Delivered</th>
            </tr>
          </thead>
          <tbody>
            {list.emails.map((email) => (
              <tr key={email.id}>
                <td>{email.to}</td>
                <td>
                  <a href={`/dev/mailbox/${encodeURIComponent(email.id)}`}>{email.subject}</a>
                </td>
                <td className="wide">{email.event}</td>
                <td className="wide">
                  {formatInvoiceDateHour(Date.parse(email.created_at) / 1000)}
                </td>
                <td>{email.delivered_at ? 'Yes' : `Waiting (${email.attempts} attempts)`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}

/** A connection from this machine: 127.0.0.0/8, ::1, or IPv4 loopback mapped into IPv6. */
export function isLoopback(address: string): boolean {
  const bare = address.replace(/^::ffff:/i, '');
  return bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

const mailboxRoutes: FastifyPluginAsyncZod<{ db: Db; baseUrl: string }> = async (
  app,
  { db, baseUrl },
) => {
  const html = (body: string) => `<!doctype html>${body}`;
  // The mailbox holds working pay links and every billing message: it answers this machine only (the
  // connection's own address, whatever a proxy's header says), as 404 to anyone else.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/dev/mailbox')) return;
    if (!isLoopback(request.socket.remoteAddress ?? '')) {
      return reply.code(404).send({ message: `No route for ${request.method} /dev/mailbox` });
    }
  });
  app.get(
    '/dev/mailbox',
    {
      config: { access: { kind: 'public' } },
      schema: { hide: true, querystring: emailOutboxQuerySchema },
    },
    async (request, reply) => {
      const list = await listOutbox(db, request.query);
      return reply
        .type('text/html; charset=utf-8')
        .send(html(renderToStaticMarkup(<MailboxList list={list} />)));
    },
  );
  app.get(
    '/dev/mailbox/:id',
    {
      config: { access: { kind: 'public' } },
      schema: { hide: true, params: z.object({ id: z.string().min(1).max(64) }) },
    },
    async (request, reply) => {
      const row = await getOutboxEmail(db, request.params.id);
      if (!row) throw new HttpError(404, 'No such message');
      const rendered =
        row.html !== null && row.text !== null
          ? { html: row.html, text: row.text }
          : await renderEmail(row.payload, { baseUrl, payLinkSecret: await payLinkSecret(db) });
      const page = (
        <Page title={row.subject}>
          <p>
            <a href="/dev/mailbox">← Mailbox</a>
          </p>
          <div className="card">
            <h1>{row.subject}</h1>
            <p className="hint">
              To {row.recipient} · {row.event} · Message-ID {row.message_id} ·{' '}
              {row.delivered_at
                ? `delivered ${formatInvoiceDateHour(row.delivered_at.getTime() / 1000)}`
                : 'waiting'}
            </p>
          </div>
          <h2>HTML</h2>
          <iframe title="The message as HTML" sandbox="" srcDoc={rendered.html} />
          <h2>Text</h2>
          <pre>{rendered.text}</pre>
        </Page>
      );
      return reply.type('text/html; charset=utf-8').send(html(renderToStaticMarkup(page)));
    },
  );
};

export default mailboxRoutes;
