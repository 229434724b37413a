import { parse as parseCsv } from 'csv-parse/sync';
import { addImportPiece, csvColumns, taskFilePieces } from './task-import-pieces';
import type { TaskImportResult } from './tasks';

const bytes = (s: string) => Buffer.byteLength(JSON.stringify(s));

describe('taskFilePieces', () => {
  it('sends a file that fits as it is', () => {
    const content = '\uFEFF{"id":"T-1","title":"a"}\r\n';
    expect(taskFilePieces('jsonl', content)).toEqual([{ content, lineShift: 0 }]);
  });

  it('cuts JSONL at line ends, each piece under the limit, line numbers kept', () => {
    const lines = Array.from({ length: 300 }, (_, i) => JSON.stringify({ id: `T-${i}`, title: `Zoë’s task ${i}`, body: 'ü'.repeat(i % 40) }));
    const pieces = taskFilePieces('jsonl', lines.join('\r\n'), 4096);
    expect(pieces.length).toBeGreaterThan(5);
    for (const p of pieces) expect(bytes(p.content)).toBeLessThan(4096);
    expect(pieces.flatMap((p) => p.content.split('\n'))).toEqual(lines);
    for (const p of pieces) expect(p.content.split('\n')[0]).toBe(lines[p.lineShift]);
  });

  it('cuts CSV between whole records, quoted line breaks and quotes intact, the header on every piece', () => {
    const header = 'id,title,body,files\r\n';
    const records = Array.from({ length: 120 }, (_, i) => `T-${i},"Title, ${i}","line one\r\nline ""two"" of ${i}",src\\app.py|docs/a.md\r\n`);
    const content = `\uFEFF${header}${records.join('')}`;
    const pieces = taskFilePieces('csv', content, 2048);
    expect(pieces.length).toBeGreaterThan(3);
    const rows = pieces.flatMap((p) => {
      expect(p.content.startsWith(header)).toBe(true);
      expect(bytes(p.content)).toBeLessThan(2048);
      const parsed = parseCsv(p.content, { columns: true }) as Array<Record<string, string>>;
      expect(parsed[0].id).toBe(`T-${p.lineShift}`);
      return parsed;
    });
    expect(rows).toEqual(parseCsv(content, { columns: true, bom: true }));
  });

  it('leaves a CSV whose quotes do not balance whole, for the server to say why', () => {
    const content = `id,title\n${'T-1,"open quote\n'.repeat(401)}`;
    expect(taskFilePieces('csv', content, 1024)).toEqual([{ content, lineShift: 0 }]);
  });
});

describe('addImportPiece', () => {
  it('adds counts, shifts error lines back to the file and keeps each warning once', () => {
    const total: TaskImportResult = { imported: 0, updated: 0, skipped: 0, errors: [] };
    addImportPiece(total, { imported: 3, updated: 1, skipped: 1, errors: [{ line: 2, message: 'bad' }], warnings: ['w'] }, 0);
    addImportPiece(total, { imported: 2, updated: 0, skipped: 1, errors: [{ line: 4, message: 'bad' }, { id: 'T-9', message: 'no line' }], paths_followed: 2, warnings: ['w'] }, 500);
    expect(total).toEqual({ imported: 5, updated: 1, skipped: 2, errors: [{ line: 2, message: 'bad' }, { line: 504, message: 'bad' }, { id: 'T-9', message: 'no line' }], paths_followed: 2, warnings: ['w'] });
  });
});

describe('csvColumns', () => {
  it('reads the header row as a CSV reader does', () => {
    const content = '\uFEFF"Issue key", Summary ,"Description, long","Say ""hi"""\r\nPAY-1,a,b,c\r\n';
    expect(csvColumns(content)).toEqual(['Issue key', 'Summary', 'Description, long', 'Say "hi"']);
    expect(csvColumns(content)).toEqual(Object.keys((parseCsv(content, { columns: true, bom: true, trim: true }) as Array<Record<string, string>>)[0]));
  });

  it('is null for text with no complete header row', () => {
    expect(csvColumns('id,title')).toBeNull();
    expect(csvColumns('"id\n')).toBeNull();
  });
});
