const ORIGIN = 'https://meterline.invalid';

/**
 * Control characters (C0, DEL, C1) and backslashes: a URL parser drops tabs and newlines and reads a
 * backslash as a slash, so `/\t/evil.com` and `/\evil.com` both become `//evil.com`, another site.
 */
function hasUnsafeCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x5c) return true;
  }
  return false;
}

/**
 * Only same-app paths are followed after sign-in: an absolute or protocol-relative URL would turn
 * the sign-in page into an open redirect. The value is checked as given and percent-decoded (a path
 * decoded once more on its way must not become another site's either), and must stay on this
 * origin whatever a browser makes of it.
 */
export function safeReturnTo(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//')) return null;
  let decoded: string;
  let url: URL;
  try {
    decoded = decodeURIComponent(value);
    url = new URL(value, ORIGIN);
  } catch {
    return null;
  }
  if (hasUnsafeCharacter(value) || hasUnsafeCharacter(decoded) || decoded.startsWith('//')) {
    return null;
  }
  if (url.origin !== ORIGIN || url.pathname === '/sign-in') return null;
  return value;
}

export function signInPath(returnTo: string): string {
  return returnTo === '/' ? '/sign-in' : `/sign-in?returnTo=${encodeURIComponent(returnTo)}`;
}
