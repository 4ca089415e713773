import { gzipSync } from 'node:zlib';
import { CAPTCHA } from './fuzz-callers.ts';
import type { FuzzCase } from './fuzz-cases.ts';

/** Quoted for bash: plain single quotes when printable, $'…' with escapes otherwise. */
function quote(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `'${text.replaceAll("'", `'\\''`)}'`;
  let out = '';
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (character === "'" || character === '\\') out += `\\${character}`;
    else if (code >= 0x20 && code < 0x7f) out += character;
    else
      out += [...Buffer.from(character, 'utf8')]
        .map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`)
        .join('');
  }
  return `$'${out}'`;
}

/**
 * A case as a curl command to run against a server (`npm run dev`, or any): the session, CSRF and operator
 * key as shell variables to fill in from a signed-in browser. A long body travels gzipped in base64, so the
 * command stays short and its bytes stay exact.
 */
export function curlOf(entry: FuzzCase, operator: boolean): string {
  const lines = [
    `curl -sS -g -i -X ${entry.method} "\${BASE:-http://localhost:8080}"${quote(entry.url)}`,
  ];
  if (entry.credentials !== 'anonymous' && entry.credentials !== 'wrong-key') {
    if (operator) lines.push(`-H "authorization: Bearer $METERING_API_KEY"`);
    else lines.push(`-H "cookie: ml_session=$SESSION; ml_csrf=$CSRF_SECRET"`);
  }
  if (entry.credentials === 'wrong-key')
    lines.push(`-H 'authorization: Bearer wrong-key-0123456789'`);
  if (!['GET', 'HEAD'].includes(entry.method) && !operator) {
    if (entry.credentials === 'caller') lines.push(`-H "x-csrf-token: $CSRF_TOKEN"`);
    if (entry.credentials === 'wrong-csrf') lines.push(`-H 'x-csrf-token: wrong'`);
  }
  for (const [name, value] of Object.entries(entry.headers)) {
    // `name;` is curl's way to send a header with an empty value (`name:` would drop it).
    lines.push(`-H ${quote(value === '' ? `${name};` : `${name}: ${value}`)}`);
  }
  // curl sends a form's content type with a body unless told to send none.
  if (entry.payload !== undefined && entry.headers['content-type'] === undefined) {
    lines.push(`-H 'content-type:'`);
  }
  let prefix = '';
  if (entry.payload !== undefined) {
    if (entry.payload.length <= 2000) {
      lines.push(`--data-binary ${quote(entry.payload)}`);
    } else {
      const packed = gzipSync(Buffer.from(entry.payload, 'utf8')).toString('base64');
      prefix = `echo '${packed}' | base64 -d | gunzip | `;
      lines.push('--data-binary @-');
    }
  }
  const note = entry.payload?.includes(CAPTCHA)
    ? `# ${CAPTCHA}: the token of POST /platform/captcha, with the same cookie and CSRF token\n`
    : '';
  return note + prefix + lines.join(' \\\n  ');
}
