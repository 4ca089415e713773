import { useState, type ReactNode } from 'react';
import { Check, Copy } from 'lucide-react';
import { toast } from '../lib/toast';
import { Button } from './ui/button';
import { Notice } from './ui/notice';

/**
 * A secret answered this once (a webhook signing secret, an access token), with a copy button and a
 * warning that it cannot be shown again. `label` names it ("Signing secret").
 */
export function SecretReveal({
  secret,
  label,
  title,
  children,
}: {
  secret: string;
  label: string;
  title: string;
  children: ReactNode;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      toast.error(`Could not copy: select the ${label.toLowerCase()} and copy it by hand.`);
    }
  };
  return (
    <div className="space-y-3">
      <Notice tone="warning" title={title}>
        {children}
      </Notice>
      <div className="flex items-center gap-2">
        {/* One line, scrolled rather than broken mid-string, so what is read is what is copied. */}
        <code
          aria-label={label}
          tabIndex={0}
          className="min-w-0 flex-1 overflow-x-auto rounded-md border bg-muted px-3 py-2 font-mono text-xs whitespace-nowrap select-all focus-visible:outline-2 focus-visible:outline-ring/40"
        >
          {secret}
        </code>
        <Button
          size="sm"
          onClick={() => void copy()}
          aria-label={`Copy the ${label.toLowerCase()}`}
        >
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}
