import type { BillingDataChanges, PaymentMethod } from '@meterline/domain';
import { toast } from '../../lib/toast';
import { useAttachPaymentMethodMutation } from '../../data/attach-payment-method-mutation';
import { useUpdateCustomerMutation } from '../../data/customer-mutation';
import { useDefaultPaymentMethodMutation } from '../../data/default-payment-method-mutation';
import { useSetupIntentMutation } from '../../data/setup-intent-mutation';
import { useDeleteTaxIdMutation, useSetTaxIdMutation } from '../../data/tax-id-mutations';
import type { CaptchaPort } from '../captcha/captcha';
import { isOutcomeUnknown } from '../idempotency';
import { CARD_PROCESSING_FALLBACK, type BillingDetails, type CardEntry } from '../payment-port';

export const CARD_ADDED_MESSAGE = 'Successfully added new payment method';

function messageOf(error: unknown): string {
  return error instanceof Error && error.message ? error.message : 'Something went wrong.';
}

export interface AddCardRequest {
  entry: CardEntry;
  captcha: CaptchaPort;
  setAsDefault: boolean;
  /** What changed in the billing address and tax ID; null parts are left alone. */
  billingChanges: BillingDataChanges | null;
  /** The name and address the provider keeps with the card. */
  billingDetails?: BillingDetails;
}

export type AddCardResult = { ok: true; method: PaymentMethod } | { ok: false; message: string };

/**
 * The add-card flow of spec §4: an invisible captcha token, a setup intent, the provider's
 * confirmation of the card (with its challenge), the card recorded; then, once the card is saved,
 * the default and the billing details as chosen. A failure before the card is recorded saves
 * nothing and says why; a failure after it is its own toast, the card staying saved.
 */
export function useAddCard(slug: string) {
  const setupIntent = useSetupIntentMutation(slug);
  const attach = useAttachPaymentMethodMutation(slug);
  const makeDefault = useDefaultPaymentMethodMutation(slug);
  const updateCustomer = useUpdateCustomerMutation(slug);
  const setTaxId = useSetTaxIdMutation(slug);
  const deleteTaxId = useDeleteTaxIdMutation(slug);

  /** Recording is idempotent, so an unknown outcome (network, 5xx) is simply asked again. */
  const record = async (setupIntentId: string): Promise<PaymentMethod> => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await attach.mutateAsync(setupIntentId);
      } catch (error) {
        if (attempt >= 3 || !isOutcomeUnknown(error)) throw error;
      }
    }
  };

  return async function addCard(request: AddCardRequest): Promise<AddCardResult> {
    let clientSecret: string;
    try {
      const token = await request.captcha.execute();
      ({ client_secret: clientSecret } = await setupIntent.mutateAsync(token));
    } catch (error) {
      toast.error(`Failed to setup intent: ${messageOf(error)}`);
      return { ok: false, message: messageOf(error) };
    }

    let method: PaymentMethod;
    try {
      const { setupIntentId } = await request.entry.confirmSetup(
        clientSecret,
        request.billingDetails,
      );
      method = await record(setupIntentId);
    } catch (error) {
      // The provider's words for the card (a decline, a failed challenge), or the spec's fallback.
      const message =
        error instanceof Error && error.message ? error.message : CARD_PROCESSING_FALLBACK;
      toast.error(message);
      return { ok: false, message: message.trim() };
    }
    toast.success(CARD_ADDED_MESSAGE);

    if (request.setAsDefault && !method.is_default) {
      try {
        await makeDefault.mutateAsync(method.id);
      } catch {
        toast.error('Failed to set payment method as default');
      }
    }

    const changes = request.billingChanges;
    if (changes?.profile) {
      try {
        await updateCustomer.mutateAsync(changes.profile);
      } catch {
        toast.error('Failed to update billing address.');
      }
    }
    if (changes?.taxId) {
      const change = changes.taxId;
      try {
        if (change.action === 'set') await setTaxId.mutateAsync(change.taxId);
        else await deleteTaxId.mutateAsync();
      } catch (error) {
        toast.error(`Failed to update tax id: ${messageOf(error)}`);
      }
    }

    return { ok: true, method };
  };
}
