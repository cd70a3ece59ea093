import { HeaderRow } from '../page-parts';

/** The text alternative of a chart: the same numbers as a table. */
export function DataTable({ caption, headers, rows }: { caption: string; headers: string[]; rows: Array<Array<string | number>> }) {
  return (
    <div className="max-h-80 overflow-auto">
      <table className="w-full border-collapse bg-white text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <HeaderRow headers={headers} dense />
        <tbody>
          {rows.map((row) => (
            <tr key={String(row[0])} className="border-b border-gray-100">
              {row.map((cell, i) => (
                <td key={i} className="px-3 py-1">
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
