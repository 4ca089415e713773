import { SecretReveal } from '../../components/secret-reveal';

/** An endpoint's signing secret, shown this once. */
export function SigningSecret({ secret }: { secret: string }) {
  return (
    <SecretReveal secret={secret} label="Signing secret" title="Copy the signing secret now">
      It is shown only this once. Your receiver needs it to check the Meterline-Signature header of
      every delivery, or the Standard Webhooks headers (it is the key a Standard Webhooks library
      takes as it is).
    </SecretReveal>
  );
}
