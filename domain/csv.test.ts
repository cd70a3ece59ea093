import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { csvCell, csvRow, neutraliseFormula, toCsv } from './csv';

/** A small RFC 4180 reader, written independently of the writer, to check round trips. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length > 0) throw new Error('file does not end with CRLF');
  return rows;
}

describe('csvCell', () => {
  it('leaves plain text alone', () => {
    expect(csvCell('hello world')).toBe('hello world');
  });

  it('quotes cells with commas, quotes and line breaks and doubles quotes', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('line1\nline2')).toBe('"line1\nline2"');
    expect(csvCell('line1\r\nline2')).toBe('"line1\r\nline2"');
  });

  it('neutralises cells that start with = + - @ (and tab or CR)', () => {
    expect(csvCell('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
  });

  it('neutralises a formula sign after any separator a spreadsheet may split on', () => {
    expect(csvCell('Great course;=1+1')).toBe("Great course;'=1+1");
    expect(csvCell('a,=1+1')).toBe(`"a,'=1+1"`);
    expect(csvCell('a\t+1|-2|@x')).toBe("a\t'+1|'-2|'@x");
    expect(csvCell('first line\n=cmd|calc')).toBe(`"first line\n'=cmd|calc"`);
    expect(csvCell('first\r\n-2+3')).toBe(`"first\r\n'-2+3"`);
    expect(csvCell('=1;=2')).toBe("'=1;'=2");
    // Only where a piece would start: a sign inside a piece is data.
    expect(csvCell('a; b = c')).toBe('a; b = c');
  });

  it('neutralises and quotes together', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('does not neutralise a sign that is not first', () => {
    expect(csvCell('a=b')).toBe('a=b');
    expect(neutraliseFormula(' =1')).toBe(' =1');
  });

  it('writes numbers, booleans and empty values', () => {
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(3.5)).toBe('3.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell('')).toBe('');
  });
});

describe('neutraliseFormula', () => {
  it('leaves no piece starting with a formula sign, whatever a spreadsheet splits on', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('=', '+', '-', '@', ',', ';', '\t', '|', '\r', '\n', 'a', ' ', "'") }), (text) => {
        for (const piece of neutraliseFormula(text).split(/[,;\t|\r\n]/)) expect(piece).not.toMatch(/^[=+\-@]/);
      }),
    );
  });
});

describe('toCsv', () => {
  it('writes CRLF-terminated rows after the header', () => {
    expect(
      toCsv(
        ['id', 'text'],
        [
          [1, 'a'],
          [2, 'b,c'],
        ],
      ),
    ).toBe('id,text\r\n1,a\r\n2,"b,c"\r\n');
  });

  it('writes only the header when there are no rows', () => {
    expect(toCsv(['a', 'b'], [])).toBe('a,b\r\n');
  });

  it('csvRow joins cells with commas', () => {
    expect(csvRow(['x', null, 7])).toBe('x,,7\r\n');
  });

  it('round-trips any text through an RFC 4180 reader (neutralised texts keep their content after the quote mark)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 1, maxLength: 5 }), { maxLength: 5 }), (rows) => {
        const header = rows[0]?.map((_, i) => `c${i}`) ?? ['c0'];
        const width = header.length;
        const body = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
        const parsed = parseCsv(toCsv(header, body));
        expect(parsed[0]).toEqual(header);
        const inside = (cell: string) => cell.replace(/([,;\t|\r\n]"*)(?=[=+\-@])/g, "$1'");
        const expected = body.map((r) => r.map((cell) => (/^"*[=+\-@\t\r]/.test(inside(cell)) ? `'${inside(cell)}` : inside(cell))));
        expect(parsed.slice(1)).toEqual(expected);
      }),
    );
  });
});

/**
 * A reader splitting on `separator` as a spreadsheet set to that separator reads the file: a quote
 * opens a quoted cell only at the cell's start, and what follows a closing quote is kept as text.
 */
function readCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = '';
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (quoted && c === '"') quoted = false;
    else if (quoted) cell += c;
    else if (c === '"' && cell === '') quoted = true;
    else if (c === separator) endCell();
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      endCell();
      rows.push(row);
      row = [];
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) {
    endCell();
    rows.push(row);
  }
  return rows;
}

describe('no cell starts a formula under either separator', () => {
  it('semi;"=1+1" read with ; gives no cell starting =1+1', () => {
    const file = toCsv(
      ['id', 'text'],
      [
        [1, 'semi;"=1+1"'],
        [2, '"=1+1"'],
        [3, 'a, "@SUM(1)"'],
        [4, 'x;""-2+3'],
      ],
    );
    for (const separator of [',', ';']) {
      for (const cell of readCsv(file, separator).flat()) expect(cell, `${separator}: ${cell}`).not.toMatch(/^[=+\-@]/);
    }
  });

  it('holds for any text, read with , or ;', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('=', '+', '-', '@', ',', ';', '"', ' ', 'a', '\n') }), (text) => {
        const file = toCsv(['id', 'text'], [[1, text]]);
        for (const separator of [',', ';']) for (const cell of readCsv(file, separator).flat()) expect(cell).not.toMatch(/^[=+\-@]/);
      }),
    );
  });
});
