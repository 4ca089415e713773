import { LoadingRegion, Skeleton } from '../components/ui/skeleton';

/** The shape of a page while its data loads: a title, a line, and a few cards. */
export function PageSkeleton({ label, cards = 3 }: { label: string; cards?: number }) {
  return (
    <LoadingRegion
      label={label}
      className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10 lg:px-8"
    >
      <Skeleton className="h-7 w-48" />
      <Skeleton className="mt-3 h-4 w-72 max-w-full" />
      <div className="mt-8 space-y-4">
        {Array.from({ length: cards }, (_, index) => (
          <div key={index} className="rounded-lg border bg-card p-6">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="mt-3 h-3 w-full max-w-md" />
            <Skeleton className="mt-2 h-3 w-2/3 max-w-sm" />
          </div>
        ))}
      </div>
    </LoadingRegion>
  );
}
