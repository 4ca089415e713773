import type { Migration } from 'kysely';
import * as foundation from './0001-foundation.ts';
import * as billing from './0002-billing.ts';
import * as customer from './0003-customer.ts';
import * as payments from './0004-payments.ts';
import * as billingVersion from './0005-billing-version.ts';
import * as simulatorCardOwner from './0006-simulator-card-owner.ts';
import * as usageEventsLog from './0007-usage-events-log.ts';
import * as chargeSettlement from './0008-charge-settlement.ts';
import * as billingRecords from './0009-billing-records.ts';
import * as simulatorCardFingerprint from './0010-simulator-card-fingerprint.ts';
import * as accessChangedNotice from './0011-access-changed-notice.ts';
import * as planChanges from './0012-plan-changes.ts';
import * as surveyResponses from './0013-survey-responses.ts';
import * as planChangeQuotes from './0014-plan-change-quotes.ts';
import * as restrictionTransitions from './0015-restriction-transitions.ts';
import * as spendCapToggles from './0016-spend-cap-toggles.ts';
import * as platformFields from './0017-platform-fields.ts';
import * as usageObservedVersion from './0018-usage-observed-version.ts';
import * as lineIncludedQuantity from './0019-line-included-quantity.ts';
import * as emailOutbox from './0021-email-outbox.ts';
import * as spendAlerts from './0022-spend-alerts.ts';
import * as webhooks from './0023-webhooks.ts';
import * as backupCard from './0025-backup-card.ts';
import * as accessTokens from './0026-access-tokens.ts';
import * as auditLog from './0027-audit-log.ts';
import * as payLinkSecret from './0028-pay-link-secret.ts';
import * as organizationChangedNotice from './0029-organization-changed-notice.ts';
import * as closedCycleScheduledEnd from './0030-closed-cycle-scheduled-end.ts';
import * as usageEventTime from './0031-usage-event-time.ts';
import * as dropOrganizationChangedNotice from './0032-drop-organization-changed-notice.ts';
import * as providerEventsAndSecretOverlap from './0033-provider-events-and-secret-overlap.ts';
import * as rateLimitWindows from './0034-rate-limit-windows.ts';
import * as simulatorAlwaysAuthenticate from './0035-simulator-always-authenticate.ts';

/** Versioned migrations, applied in key order at start; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-billing': billing,
  '0003-customer': customer,
  '0004-payments': payments,
  '0005-billing-version': billingVersion,
  '0006-simulator-card-owner': simulatorCardOwner,
  '0007-usage-events-log': usageEventsLog,
  '0008-charge-settlement': chargeSettlement,
  '0009-billing-records': billingRecords,
  '0010-simulator-card-fingerprint': simulatorCardFingerprint,
  '0011-access-changed-notice': accessChangedNotice,
  '0012-plan-changes': planChanges,
  '0013-survey-responses': surveyResponses,
  '0014-plan-change-quotes': planChangeQuotes,
  '0015-restriction-transitions': restrictionTransitions,
  '0016-spend-cap-toggles': spendCapToggles,
  '0017-platform-fields': platformFields,
  '0018-usage-observed-version': usageObservedVersion,
  '0019-line-included-quantity': lineIncludedQuantity,
  '0021-email-outbox': emailOutbox,
  '0022-spend-alerts': spendAlerts,
  '0023-webhooks': webhooks,
  '0025-backup-card': backupCard,
  '0026-access-tokens': accessTokens,
  '0027-audit-log': auditLog,
  '0028-pay-link-secret': payLinkSecret,
  '0029-organization-changed-notice': organizationChangedNotice,
  '0030-closed-cycle-scheduled-end': closedCycleScheduledEnd,
  '0031-usage-event-time': usageEventTime,
  '0032-drop-organization-changed-notice': dropOrganizationChangedNotice,
  '0033-provider-events-and-secret-overlap': providerEventsAndSecretOverlap,
  '0034-rate-limit-windows': rateLimitWindows,
  '0035-simulator-always-authenticate': simulatorAlwaysAuthenticate,
};
