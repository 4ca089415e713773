import { useState } from 'react';
import { Loader2, ShieldCheck } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Dialog } from '../ui/dialog';
import { resolveSimulatedChallenge, type ChallengeOutcome } from './simulator-api';

export interface PendingChallenge {
  id: string;
  /** Called with the intent's final answer: null when it succeeded, else the error. */
  settle: (error: unknown) => void;
}

/**
 * The simulator's 3-D Secure screen: what the customer's bank shows in production. The customer
 * approves or fails the authentication; the simulator answers the intent's final status. It cannot
 * be dismissed: the payment waits for an answer.
 */
export function ChallengeDialog({ challenge }: { challenge: PendingChallenge | null }) {
  const [sending, setSending] = useState<ChallengeOutcome | null>(null);

  const answer = async (outcome: ChallengeOutcome) => {
    if (!challenge || sending) return;
    setSending(outcome);
    try {
      await resolveSimulatedChallenge(challenge.id, outcome);
      challenge.settle(null);
    } catch (error) {
      challenge.settle(error);
    } finally {
      setSending(null);
    }
  };

  return (
    <Dialog
      open={challenge !== null}
      onOpenChange={() => undefined}
      dismissible={false}
      size="sm"
      title="Confirm it's you"
      description="Your bank asks you to authenticate this card (3-D Secure)."
      footer={
        <>
          <Button disabled={sending !== null} onClick={() => void answer('fail')}>
            {sending === 'fail' ? <Loader2 aria-hidden className="animate-spin" /> : null}
            Fail authentication
          </Button>
          <Button
            variant="primary"
            disabled={sending !== null}
            onClick={() => void answer('complete')}
          >
            {sending === 'complete' ? <Loader2 aria-hidden className="animate-spin" /> : null}
            Complete authentication
          </Button>
        </>
      }
    >
      <div className="flex gap-3">
        <div className="flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-soft text-primary-soft-foreground">
          <ShieldCheck aria-hidden className="size-5" />
        </div>
        <p className="text-muted-foreground">
          This is the payment simulator's test challenge. In production your bank would ask for a
          code or an approval in its app here. Choose how the authentication ends.
        </p>
      </div>
    </Dialog>
  );
}
