/**
 * Only same-app paths are followed after sign-in: an absolute or protocol-relative URL would turn
 * the sign-in page into an open redirect.
 */
export function safeReturnTo(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return null;
  }
  if (value === '/sign-in' || value.startsWith('/sign-in?')) return null;
  return value;
}

export function signInPath(returnTo: string): string {
  return returnTo === '/' ? '/sign-in' : `/sign-in?returnTo=${encodeURIComponent(returnTo)}`;
}
