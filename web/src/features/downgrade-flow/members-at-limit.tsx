import type { FreeLimitMember } from '../../data/free-project-limit-members-query';

function memberName(member: FreeLimitMember): string {
  return member.username || member.primary_email || 'A member';
}

/**
 * The blocking step: members who administer this organization have reached their free project
 * limit, so the organization cannot become one more free organization of theirs.
 */
export function MembersAtLimit({ members }: { members: readonly FreeLimitMember[] }) {
  return (
    <div className="space-y-4">
      <p>
        A downgrade to the Free plan is not possible while an owner or administrator of this
        organization has reached their limit of active free projects. Each of them must pause or
        delete a free project first, then try again.
      </p>
      <ul aria-label="Members at their free project limit" className="divide-y rounded-md border">
        {members.map((member) => (
          <li
            key={`${member.username ?? ''}|${member.primary_email ?? ''}`}
            className="flex flex-col gap-0.5 px-3 py-2.5 sm:flex-row sm:items-center sm:justify-between sm:gap-4"
          >
            <span className="min-w-0 font-medium break-words">{memberName(member)}</span>
            <span className="shrink-0 text-muted-foreground">
              {`Limit of ${member.free_project_limit} free ${member.free_project_limit === 1 ? 'project' : 'projects'}`}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
