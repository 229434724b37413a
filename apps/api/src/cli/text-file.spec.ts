import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTextFile, TextFileError } from './text-file';

describe('readTextFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sextant-text-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, bytes: Buffer) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  };
  const text = 'id,title\r\nT-1,Café crème\r\n';

  it('reads UTF-8 without its byte-order mark, and UTF-16 that starts with one (Excel, PowerShell)', () => {
    expect(readTextFile(file('plain.csv', Buffer.from(text)))).toBe(text);
    expect(readTextFile(file('bom.csv', Buffer.from(`\uFEFF${text}`)))).toBe(text);
    expect(readTextFile(file('le.csv', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])))).toBe(text);
    const be = Buffer.from(text, 'utf16le').swap16();
    expect(readTextFile(file('be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), be])))).toBe(text);
  });

  it('refuses a legacy code page with the line of its first unreadable byte, instead of storing replacement characters', () => {
    const latin1 = file('latin1.csv', Buffer.from(`id,title\nT-1,Fix it\nT-2,Café crème\n`, 'latin1'));
    expect(() => readTextFile(latin1)).toThrow(TextFileError);
    expect(() => readTextFile(latin1)).toThrow(`${latin1} is not UTF-8 text (line 3 has a byte that is not): save it as UTF-8 (in Excel: "CSV UTF-8")`);
  });
});
