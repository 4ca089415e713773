import { DropdownMenu } from 'radix-ui';
import { Check, LogOut, Monitor, Moon, Sun } from 'lucide-react';
import { toast } from '../lib/toast';
import { useProfile } from '../session/profile-context';
import type { ReactElement } from 'react';
import { useFocusFirstItem, type IntentProps } from '../components/ui/on-intent';
import { useSignOutMutation } from '../data/sign-out-mutation';
import { setThemePreference, useTheme, type ThemePreference } from '../lib/theme';
import { menuContent, menuItem, menuLabel, menuSeparator } from './menu-styles';

const THEMES: { value: ThemePreference; label: string; Icon: typeof Sun }[] = [
  { value: 'light', label: 'Light', Icon: Sun },
  { value: 'dark', label: 'Dark', Icon: Moon },
  { value: 'system', label: 'System', Icon: Monitor },
];

/** The user menu itself, loaded on intent (./user-menu). */
export function UserMenuDropdown({
  defaultOpen,
  openedByKeyboard,
  triggerRef,
  trigger,
}: IntentProps & {
  /** The menu's trigger (./user-menu), which the menu opens from. */
  trigger: ReactElement;
}) {
  const { user } = useProfile();
  const focusFirstItem = useFocusFirstItem(openedByKeyboard);
  const { preference } = useTheme();
  const signOut = useSignOutMutation();

  async function handleSignOut() {
    try {
      await signOut.mutateAsync();
      // A full load drops everything the previous session had in memory.
      window.location.assign('/sign-in');
    } catch (error) {
      toast.error(
        `Failed to sign out: ${error instanceof Error ? error.message : 'unknown error'}`,
      );
    }
  }

  return (
    <DropdownMenu.Root defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger asChild ref={triggerRef}>
        {trigger}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className={`${menuContent} w-64`}
          onFocus={focusFirstItem}
        >
          <div className="px-2 py-2">
            {user.name ? <p className="truncate font-medium">{user.name}</p> : null}
            <p className="truncate text-muted-foreground">{user.email}</p>
          </div>
          <DropdownMenu.Separator className={menuSeparator} />
          <DropdownMenu.Label className={menuLabel}>Theme</DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={preference}
            onValueChange={(value) => setThemePreference(value as ThemePreference)}
          >
            {THEMES.map(({ value, label, Icon }) => (
              <DropdownMenu.RadioItem
                key={value}
                value={value}
                className={menuItem}
                onSelect={(event) => event.preventDefault()}
              >
                <Icon aria-hidden className="text-muted-foreground" />
                {label}
                <DropdownMenu.ItemIndicator className="ml-auto">
                  <Check aria-hidden />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
          <DropdownMenu.Separator className={menuSeparator} />
          <DropdownMenu.Item
            className={menuItem}
            disabled={signOut.isPending}
            onSelect={() => void handleSignOut()}
          >
            <LogOut aria-hidden className="text-muted-foreground" />
            Sign out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
