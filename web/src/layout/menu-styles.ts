/** Shared looks of the Radix dropdown menus, so every menu reads the same. */
export const menuContent =
  'z-50 min-w-56 overflow-hidden rounded-lg border bg-popover p-1 text-foreground shadow-popover data-[state=open]:animate-fade-in';

export const menuItem =
  'relative flex cursor-default items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none select-none data-[disabled]:pointer-events-none data-[disabled]:opacity-50 data-[highlighted]:bg-muted [&_svg]:size-4 [&_svg]:shrink-0';

export const menuLabel = 'px-2 pt-1.5 pb-1 text-xs font-medium text-muted-foreground';

export const menuSeparator = 'my-1 h-px bg-border';
