// Records the billing responses the component tests read (web/test/recorded/) from a running API
// with the demo world: `BASE=http://127.0.0.1:8091 node web/test/record-billing.mjs`, then prettier.
import { writeFileSync } from 'node:fs';

const BASE = process.env.BASE ?? 'http://127.0.0.1:8091';
const OUT = new URL('./recorded', import.meta.url).pathname;
let cookie = '';
async function call(path, init = {}) {
  const res = await fetch(BASE + path, { ...init, headers: { ...(init.headers ?? {}), cookie } });
  const set = res.headers.getSetCookie?.() ?? [];
  if (set.length) cookie = [cookie, ...set.map((c) => c.split(';')[0])].filter(Boolean).join('; ');
  return res;
}
async function json(path, headers = {}) {
  const res = await call(path, { headers });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}
function save(name, data) {
  writeFileSync(`${OUT}/${name}.json`, JSON.stringify(data, null, 2) + '\n');
  process.stdout.write(`saved ${name}\n`);
}
const { token } = await (await call('/platform/auth/csrf')).json();
const signIn = await call('/platform/auth/sign-in', {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-csrf-token': token },
  body: JSON.stringify({ email: 'owner@example.com', password: 'billing-demo-2026' }),
});
if (!signIn.ok) throw new Error('sign-in failed');
const org = (slug) => `/platform/organizations/${slug}`;
const day = (s) => new Date(s * 1000).toISOString().slice(0, 10);

for (const slug of [
  'acme-pro',
  'acme-free',
  'aws-co',
  'fly-co',
  'vercel_icfg_demo123',
  'payg-co',
  'grace-co',
  'limits-co',
  'fairuse-co',
  'restricted-co',
]) {
  save(`organization-${slug}`, await json(org(slug)));
}
for (const slug of ['acme-pro', 'acme-free']) {
  save(`customer-${slug}`, await json(`${org(slug)}/customer`));
}
for (const slug of ['acme-pro', 'payg-co', 'acme-free', 'grace-co', 'limits-co', 'aws-co']) {
  save(`subscription-${slug}`, await json(`${org(slug)}/billing/subscription`));
}
save('plans-acme-pro', await json(`${org('acme-pro')}/billing/plans`));
for (const slug of ['acme-pro', 'payg-co']) {
  save(
    `upcoming-invoice-${slug}`,
    await json(`${org(slug)}/billing/invoices/upcoming`, { Version: '2' }),
  );
}
for (const slug of ['acme-pro', 'acme-free']) {
  const head = await call(`${org(slug)}/billing/invoices`, { method: 'HEAD' });
  const total = Number(head.headers.get('x-total-count'));
  save(`invoices-count-${slug}`, { 'x-total-count': total });
  for (let offset = 0, page = 1; offset < Math.max(total, 1); offset += 5, page++) {
    save(
      `invoices-${slug}-page-${page}`,
      await json(`${org(slug)}/billing/invoices?offset=${offset}&limit=5`),
    );
  }
}
const first = await json(`${org('acme-pro')}/billing/invoices?offset=0&limit=5`);
const open = first.find((i) => i.status === 'open');
save('invoice-acme-pro-open', await json(`${org('acme-pro')}/billing/invoices/${open.id}`));
save(
  'payment-link-acme-pro-open',
  await json(`${org('acme-pro')}/billing/invoices/${open.id}/payment-link`),
);
for (const slug of [
  'acme-pro',
  'payg-co',
  'acme-free',
  'grace-co',
  'limits-co',
  'restricted-co',
  'fairuse-co',
]) {
  save(`usage-${slug}`, await json(`${org(slug)}/usage`));
}
for (const slug of ['acme-pro', 'limits-co']) {
  const sub = await json(`${org(slug)}/billing/subscription`);
  const start = day(sub.current_period_start);
  const end = day(sub.current_period_end - 86400);
  save(`usage-daily-${slug}`, {
    start,
    end,
    ...(await json(`${org(slug)}/usage/daily?start=${start}&end=${end}`)),
  });
}
const subPro = await json(`${org('acme-pro')}/billing/subscription`);
const s = day(subPro.current_period_start),
  e = day(subPro.current_period_end - 86400);
save('usage-daily-acme-pro-acmepro1', {
  start: s,
  end: e,
  projectRef: 'acmepro1',
  ...(await json(`${org('acme-pro')}/usage/daily?start=${s}&end=${e}&projectRef=acmepro1`)),
});
save('projects-limits-co', await json(`${org('limits-co')}/projects`));
