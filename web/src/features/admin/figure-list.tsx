import { Fragment, type ReactNode } from 'react';

/** One labelled figure: [label, data-testid, text]. */
export type FigureRow = [string, string, string];

/** A two-column list of labelled figures (session telemetry, the dashboard's session figures); `children` adds rows. */
export function FigureList({ rows, children }: { rows: FigureRow[]; children?: ReactNode }) {
  return (
    <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
      {rows.map(([label, testId, value]) => (
        <Fragment key={testId}>
          <dt className="font-semibold">{label}</dt>
          <dd data-testid={testId}>{value}</dd>
        </Fragment>
      ))}
      {children}
    </dl>
  );
}
