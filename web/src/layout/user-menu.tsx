import { lazy, type ComponentProps } from 'react';
import { OnIntent } from '../components/ui/on-intent';
import { useProfile } from '../session/profile-context';

const loadDropdown = () => import('./user-menu-dropdown');
const UserMenuDropdown = lazy(async () => ({ default: (await loadDropdown()).UserMenuDropdown }));

const TRIGGER_CLASS =
  'flex size-8 items-center justify-center rounded-full border bg-muted text-xs font-semibold text-muted-foreground transition-colors hover:text-foreground data-[state=open]:ring-2 data-[state=open]:ring-ring/40';

function initials(name: string, email: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters =
    words.length >= 2 ? `${words[0]?.[0] ?? ''}${words.at(-1)?.[0] ?? ''}` : email.slice(0, 2);
  return letters.toUpperCase();
}

/** The user's initials opening the user menu (theme, sign out), which loads on intent. */
export function UserMenu() {
  const { user } = useProfile();
  // One trigger, drawn here: the stand-in until the menu has loaded, then the menu's own.
  const trigger = (props: ComponentProps<'button'> & { 'data-state'?: string }) => (
    <button type="button" aria-haspopup="menu" className={TRIGGER_CLASS} {...props}>
      {/* The initials are decoration; the name a screen reader hears is the visible label's own. */}
      <span aria-hidden>{initials(user.name, user.email)}</span>
      <span className="sr-only">User menu</span>
    </button>
  );
  return (
    <OnIntent
      load={loadDropdown}
      standIn={(props) => trigger({ 'aria-expanded': false, 'data-state': 'closed', ...props })}
    >
      {(intent) => <UserMenuDropdown {...intent} trigger={trigger({})} />}
    </OnIntent>
  );
}
