import { useState } from 'react';
import { Check, Copy } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button';
import { Notice } from '../../components/ui/notice';

/** A signing secret shown this once, with a copy button. */
export function SecretReveal({ secret }: { secret: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      toast.error('Could not copy: select the secret and copy it by hand.');
    }
  };
  return (
    <div className="space-y-3">
      <Notice tone="warning" title="Copy the signing secret now">
        It is shown only this once. Your receiver needs it to check the Meterline-Signature header
        of every delivery.
      </Notice>
      <div className="flex items-center gap-2">
        <code
          aria-label="Signing secret"
          className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-xs break-all"
        >
          {secret}
        </code>
        <Button size="sm" onClick={() => void copy()} aria-label="Copy the signing secret">
          {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </div>
  );
}
