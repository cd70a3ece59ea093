/**
 * RFC 4180 CSV writing for the admin exports (docs/product-rules.md, CSV rules), with formula-injection defence.
 *
 * Spreadsheets execute a cell that starts with `=`, `+`, `-` or `@` as a formula, and the exported
 * texts are written by users (feedback, transcripts, emails). Such string cells get a leading `'`,
 * which spreadsheets show as text. Tab and carriage return are treated the same way because some
 * spreadsheets skip them before looking for a formula sign (OWASP "CSV injection").
 * A spreadsheet may also split the file on another separator than the comma (`;` in many locales,
 * tab, `|`) or on every line break, and then each piece starts a cell of its own: a formula sign
 * right after any of those characters (or after one and the quotes a reader drops) gets
 * the `'` too (`Great course;=1+1` -> `Great course;'=1+1`, `semi;"=1+1"` -> `semi;"'=1+1"`).
 * Numbers are written as numbers: a negative number is data, not a formula.
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^"*[=+\-@\t\r]/;
/**
 * A formula sign right after a character some spreadsheet may split cells or rows on, or after
 * such a character and the quotes a reader drops (`semi;"=1+1"` is the cell `=1+1` to a
 * reader splitting on `;`): the `'` goes right before the sign.
 */
const FORMULA_AFTER_SEPARATOR = /([,;\t|\r\n]"*)(?=[=+\-@])/g;
const NEEDS_QUOTES = /[",\r\n]/;
const ROW_END = '\r\n';

/** Defuses a text a spreadsheet would otherwise run as a formula. */
export function neutraliseFormula(text: string): string {
  const inside = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  return FORMULA_START.test(inside) ? `'${inside}` : inside;
}

/** One field: formula-neutralised, quoted when it holds a comma, quote or line break. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    // NaN/Infinity are not data a spreadsheet can read; an empty cell says "no value".
    return Number.isFinite(value) ? String(value) : '';
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, terminated by CRLF as RFC 4180 (the CSV format) says. */
export function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(',') + ROW_END;
}

/** A whole file: the header row, then one row per record. */
export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return csvRow(header) + rows.map(csvRow).join('');
}
