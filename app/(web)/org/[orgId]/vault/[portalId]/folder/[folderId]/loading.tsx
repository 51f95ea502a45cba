import { Skeleton } from "@/components/ui/skeleton";

/** The Files tab while its folder loads: breadcrumbs, the folder tree, the upload area and the table. */
export default function Loading() {
  return (
    <div role="status" aria-label="Loading files" className="space-y-4">
      <Skeleton className="h-7 w-48" />
      <div className="grid grid-cols-1 gap-4 md:grid-cols-[14rem_minmax(0,1fr)]">
        <Skeleton className="hidden h-64 md:block" />
        <div className="space-y-3">
          <Skeleton className="h-32 w-full" />
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="h-10 w-full" />
          ))}
        </div>
      </div>
    </div>
  );
}
