import { pageWindow } from '../../../../domain/pagination';
import type { Pagination } from '../../../../contract';

const base =
  'inline-flex h-10 min-w-10 items-center justify-center rounded-xl px-3 text-sm font-semibold transition focus-visible:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400/60 disabled:cursor-not-allowed disabled:text-slate-400';

/** docs/product-rules.md, Pagination: Previous, at most five page numbers, Next, and 'Showing page X of Y'. */
export function PaginationNav({ pagination, onPage }: { pagination: Pagination; onPage: (page: number) => void }) {
  const { page, totalPages } = pagination;
  if (totalPages < 1) return null;
  return (
    <nav aria-label="History pages" className="mt-8 flex flex-col items-center gap-3">
      <div className="flex flex-wrap items-center justify-center gap-1.5">
        <button
          type="button"
          className={`${base} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
          disabled={!pagination.hasPreviousPage}
          onClick={() => onPage(page - 1)}
        >
          Previous
        </button>
        {pageWindow(page, totalPages).map((n) => (
          <button
            key={n}
            type="button"
            aria-label={`Page ${n}`}
            aria-current={n === page ? 'page' : undefined}
            onClick={() => onPage(n)}
            className={`${base} ${n === page ? 'bg-indigo-700 text-white' : 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50'}`}
          >
            {n}
          </button>
        ))}
        <button
          type="button"
          className={`${base} border border-slate-300 bg-white text-slate-800 hover:bg-slate-50`}
          disabled={!pagination.hasNextPage}
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
      </div>
      <p className="text-sm text-slate-600">
        Showing page {page} of {totalPages}
      </p>
    </nav>
  );
}
