import { ROLE_NAMES } from '@meterline/domain';
import { ACME_TEAM, DEMO_PASSWORD } from './seed/demo-world-data.ts';
import { fromRepoRoot } from './repo-root.ts';

/** What a start did with the demo world, as SEED_DEMO says: auto seeds an empty store, or keeps what is there. */
export type DemoWorldAtStart = 'seeded' | 'kept' | 'reset' | 'off';

export interface StartupFacts {
  url: string;
  store: { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; schema?: string | undefined };
  demoWorld: DemoWorldAtStart;
  /** Where billing mail goes: the built-in outbox (read on the mailbox page) or an SMTP server. */
  mail?: 'outbox' | 'smtp';
}

/** The line tests and scripts wait for; its wording is their contract. */
export function runningLine(facts: StartupFacts): string {
  return `Meterline is running on ${facts.url}`;
}

/** Who to sign in as, with what each sees. */
export const DEMO_SIGN_INS: [email: string, access: string][] = [
  ...ACME_TEAM.map(([email, role]): [string, string] => [email, ROLE_NAMES[role]]),
  ['outsider@example.com', 'only in outsider-org'],
];

const DEMO_WORLD: Record<DemoWorldAtStart, string> = {
  seeded: 'seeded into the empty store just now',
  kept: 'kept as an earlier start left it (SEED_DEMO=auto seeds only an empty store)',
  reset: 'reset by this start (SEED_DEMO=always)',
  off: 'not seeded (SEED_DEMO=never)',
};

export function storeDescription(store: StartupFacts['store']): string {
  if (store.kind === 'pglite') return `embedded database in ${store.dataDir}`;
  return `PostgreSQL server of DATABASE_URL${store.schema ? `, schema ${store.schema}` : ''}`;
}

function shellWord(text: string): string {
  return /^[\w./:@-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/** How to start again, by what actually works on this store. */
function resetLines(facts: StartupFacts): string[] {
  const { store } = facts;
  if (store.kind === 'postgres') {
    return [
      '`npm run seed:demo` with the same DATABASE_URL and DATABASE_SCHEMA resets the demo organizations',
    ];
  }
  // The reset reads DATA_DIR as the server does: a directory other than the default is named again.
  const env =
    store.dataDir === fromRepoRoot('./.data') ? '' : `DATA_DIR=${shellWord(store.dataDir)} `;
  const again = facts.demoWorld === 'off' ? '' : ' (seeded again at the next start)';
  return [
    `stop the server (Ctrl-C), then \`${env}npm run seed:demo\` to reset the demo organizations,`,
    `or delete ${store.dataDir} to start from an empty store${again}`,
  ];
}

/**
 * The block `npm start` prints for a person: where to go, who to sign in as, where the data lives and how
 * to start again. Production says the same in JSON log lines instead (main.ts).
 */
export function startupBlock(facts: StartupFacts): string {
  const rows: [string, string[]][] = [['Demo world', [DEMO_WORLD[facts.demoWorld]]]];
  if (facts.demoWorld !== 'off') {
    const width = Math.max(...DEMO_SIGN_INS.map(([email]) => email.length));
    rows.push(
      ['Sign in as', DEMO_SIGN_INS.map(([email, access]) => `${email.padEnd(width)}  ${access}`)],
      ['Password', [`${DEMO_PASSWORD} (every demo user)`]],
    );
  }
  rows.push(
    ['Data', [storeDescription(facts.store)]],
    ['Reset', resetLines(facts)],
    ...(facts.mail
      ? [
          [
            'Mail',
            [
              facts.mail === 'outbox'
                ? `${facts.url}/dev/mailbox (billing mail kept by the built-in outbox)`
                : 'billing mail goes out through SMTP_URL',
            ],
          ] as [string, string[]],
        ]
      : []),
    ['API', [`${facts.url}/platform/docs`]],
  );
  const label = Math.max(...rows.map(([name]) => name.length)) + 2;
  const lines = rows.flatMap(([name, values]) =>
    values.map((value, index) => `  ${(index === 0 ? name : '').padEnd(label)}${value}`),
  );
  return [runningLine(facts), '', ...lines, ''].join('\n') + '\n';
}
