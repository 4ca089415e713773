import type { ReactNode } from 'react';
import { AlertTriangle, CheckCircle2, Info, Lock, XCircle } from 'lucide-react';
import { cn } from '../../lib/cn';

const TONES = {
  info: { box: 'border-border bg-muted', icon: 'text-muted-foreground', Icon: Info },
  lock: { box: 'border-border bg-muted', icon: 'text-muted-foreground', Icon: Lock },
  warning: {
    box: 'border-warning/40 bg-warning-soft',
    icon: 'text-warning',
    Icon: AlertTriangle,
  },
  success: {
    box: 'border-success/40 bg-success-soft',
    icon: 'text-success',
    Icon: CheckCircle2,
  },
  destructive: {
    box: 'border-destructive/35 bg-destructive-soft',
    icon: 'text-destructive',
    Icon: XCircle,
  },
} as const;

/** An inline message with an icon, a title, an optional description and optional actions. */
export function Notice({
  tone = 'info',
  title,
  children,
  actions,
  className,
  role,
}: {
  tone?: keyof typeof TONES;
  title: ReactNode;
  children?: ReactNode;
  actions?: ReactNode;
  className?: string;
  role?: 'alert' | 'status';
}) {
  const { box, icon, Icon } = TONES[tone];
  return (
    <div
      role={role}
      className={cn(
        'flex flex-col gap-3 rounded-md border px-4 py-3 sm:flex-row sm:items-center',
        box,
        className,
      )}
    >
      <div className="flex min-w-0 flex-1 gap-3">
        <Icon aria-hidden className={cn('mt-0.5 size-4 shrink-0', icon)} />
        <div className="min-w-0 space-y-0.5">
          <p className="font-medium text-foreground">{title}</p>
          {children ? <div className="text-muted-foreground">{children}</div> : null}
        </div>
      </div>
      {actions ? <div className="flex shrink-0 gap-2 pl-7 sm:pl-0">{actions}</div> : null}
    </div>
  );
}
