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
        <code
          aria-label={label}
          className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all"
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
