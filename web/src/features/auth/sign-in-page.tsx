import { useEffect, useState } from 'react';
import { zodResolver } from '@hookform/resolvers/zod';
import { signInBodySchema, type SignInBody } from '@meterline/domain';
import { AlertCircle, Loader2 } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { Navigate, useSearchParams } from '../../lib/router';
import { LogoMark } from '../../components/logo';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field } from '../../components/ui/field';
import { Input } from '../../components/ui/input';
import { isApiError } from '../../data/api-client';
import { useProfileQuery } from '../../data/profile-query';
import { useSignInMutation } from '../../data/sign-in-mutation';
import { safeReturnTo } from '../../lib/return-to';
import { usePageTitle } from '../../lib/page-title';

/** Counts down the seconds of a 429's Retry-After, so the button re-enables on its own. */
function useCountdown(): [number, (seconds: number) => void] {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    if (seconds <= 0) return;
    const timer = window.setTimeout(() => setSeconds((left) => left - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [seconds]);
  return [seconds, setSeconds];
}

export function SignInPage() {
  usePageTitle('Sign in');
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  const profile = useProfileQuery();
  const signIn = useSignInMutation();
  const [waitSeconds, startWait] = useCountdown();
  const form = useForm<SignInBody>({
    resolver: zodResolver(signInBodySchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors } = form.formState;

  // Signed in (already, or just now once the profile refetched): go where the user was headed.
  if (profile.data) {
    const first = profile.data.organizations[0];
    return <Navigate replace to={returnTo ?? (first ? `/org/${first.slug}` : '/')} />;
  }

  const busy = signIn.isPending || (signIn.isSuccess && profile.isFetching);
  const onSubmit = form.handleSubmit((values) => {
    signIn.mutate(values, {
      onError: (error) => {
        if (isApiError(error, 429) && error.retryAfterSeconds) {
          startWait(Math.ceil(error.retryAfterSeconds));
        }
      },
    });
  });

  return (
    <main
      id="main"
      className="flex flex-1 flex-col items-center justify-center px-4 py-12 sm:py-20"
    >
      <div className="w-full max-w-sm">
        <div className="mb-8 flex flex-col items-center text-center">
          <LogoMark className="size-9" />
          <h1 className="mt-5 text-xl font-semibold tracking-tight">Sign in to Meterline</h1>
          <p className="mt-1.5 text-muted-foreground">
            Manage your organization's plan, invoices and payment details.
          </p>
        </div>
        <Card className="p-6 sm:p-7">
          <form noValidate onSubmit={onSubmit} className="space-y-4">
            <Field label="Email" error={errors.email?.message}>
              <Input
                type="email"
                autoComplete="username"
                autoFocus
                placeholder="you@company.com"
                {...form.register('email')}
              />
            </Field>
            <Field label="Password" error={errors.password?.message}>
              <Input
                type="password"
                autoComplete="current-password"
                {...form.register('password')}
              />
            </Field>
            {signIn.isError ? (
              <div
                role="alert"
                className="flex gap-2 rounded-md border border-destructive/30 bg-destructive-soft px-3 py-2.5 text-destructive-soft-foreground"
              >
                <AlertCircle aria-hidden className="mt-0.5 size-4 shrink-0" />
                <div>
                  <p>{signIn.error.message}</p>
                  {waitSeconds > 0 ? (
                    <p className="text-xs opacity-80">You can try again in {waitSeconds} s.</p>
                  ) : null}
                </div>
              </div>
            ) : null}
            <Button
              type="submit"
              variant="primary"
              className="w-full"
              disabled={busy || waitSeconds > 0}
              aria-busy={busy || undefined}
            >
              {busy ? <Loader2 aria-hidden className="animate-spin" /> : null}
              Sign in
            </Button>
          </form>
        </Card>
      </div>
    </main>
  );
}
