import { Notice } from './ui/notice';

/** The spec's notice for a part of a page the user's role may not see or change (§6). */
export function PermissionNotice({ action }: { action: string }) {
  return (
    <Notice tone="lock" title={`You need additional permissions to ${action}`}>
      Contact your organization owner or administrator for assistance.
    </Notice>
  );
}
