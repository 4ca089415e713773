import { useId } from 'react';
import type { Project } from '@meterline/domain';
import { NativeSelect } from '../../components/ui/native-select';

/** Narrows the daily charts and the per-project rows to one project; quotas stay the org's. */
export function ProjectFilter({
  projects,
  value,
  onChange,
}: {
  projects: readonly Pick<Project, 'ref' | 'name'>[];
  value: string | null;
  onChange: (ref: string | null) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium whitespace-nowrap">
        Project
      </label>
      <NativeSelect
        id={id}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value || null)}
        boxClassName="w-56 max-w-full"
      >
        <option value="">All projects</option>
        {projects.map((project) => (
          <option key={project.ref} value={project.ref}>
            {project.name}
          </option>
        ))}
      </NativeSelect>
    </div>
  );
}
