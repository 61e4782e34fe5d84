/** A bar across the top of the window while a page's code or data is on its way. */
function RouteProgress() {
  return (
    <div className="fixed inset-x-0 top-0 z-50 h-1 overflow-hidden bg-primary/20" aria-hidden="true">
      <div className="route-progress h-full w-1/3 bg-primary" />
    </div>
  );
}

/** Grey blocks where a list's rows will stand. */
export function ListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="space-y-2" role="status">
      <span className="sr-only">Loading</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="skeleton h-14 w-full" />
      ))}
    </div>
  );
}

/** A page on its way (code, or the signed-in user): the progress bar over the page's outline. */
export function PageSkeleton() {
  return (
    <div className="space-y-6 p-4">
      <RouteProgress />
      <div className="skeleton h-8 w-56" />
      <ListSkeleton />
    </div>
  );
}

/**
 * The page the server sent (prerendered, or rendered with its data; decision 020), which the app
 * renders over: while the page's code first loads, the same nodes (with whatever the visitor
 * typed) stand in for it instead of a skeleton. Gone once the page has rendered.
 */
let served = typeof document == "object" && document.querySelector("#root main > *");
const adoptServed = (box: HTMLElement | null) => {
  const focused = document.activeElement as HTMLElement;
  if (served) box?.append(served);
  focused.focus();
  return () => void (served = null);
};

/** A page's code on its way: the page as the server sent it, the first time; else a skeleton. */
export const PageLoading = () => (served ? <div className="contents" ref={adoptServed} /> : <PageSkeleton />);
