import { stripReportNoise } from './report-noise';
import { extractQueryEvidence, weightQueryTerms } from './query-evidence';

const REPORT = [
  'capsys does not capture writes from a thread',
  '',
  'Output written from a background thread shows up on the terminal instead of in `capsys.readouterr()`.',
  '',
  '```',
  'Package    Version',
  '---------- -------',
  'attrs      21.4.0',
  'pluggy     1.0.0',
  'Django==4.2.5',
  '- urllib3 2.0.4',
  '```',
  '- OS: Ubuntu 22.04.3 LTS (x86_64)',
  '**Python version:** 3.11.4',
  '2023-09-14 10:21:07,118 DEBUG urllib3.connectionpool Starting new HTTPS connection (1): pypi.org:443',
  '[2023-09-14 10:21:07 +0000] [4121] [INFO] Listening at: http://0.0.0.0:8000 (4121)',
  'Traceback (most recent call last):',
  '  File "/home/me/.venv/lib/python3.11/site-packages/_pytest/capture.py", line 412, in readouterr',
  '    out = self.out.snap()',
  '    at handle (/srv/app/node_modules/router/lib/layer.js:95:5)',
  'ValueError: I/O operation on closed file',
].join('\n');

describe('stripReportNoise', () => {
  it('leaves out version lists, environment and log lines, and cuts frames to file and function', () => {
    const prose = stripReportNoise(REPORT);
    expect(prose.text).toContain('capsys does not capture writes from a thread');
    expect(prose.text).toContain('`capsys.readouterr()`');
    expect(prose.text).toContain('    out = self.out.snap()');
    expect(prose.text).toContain('ValueError: I/O operation on closed file');
    expect(prose.text).toContain('  capture.py readouterr');
    expect(prose.text).toContain('    layer.js handle');
    for (const gone of ['attrs', 'pluggy', 'Django', 'urllib3', 'Ubuntu', '3.11.4', 'site-packages', 'Listening', 'Package']) expect(prose.text).not.toContain(gone);
    expect(prose).toMatchObject({ droppedLines: 10, shortenedFrames: 2 });
  });

  it("keeps the problem words among a long report's strongest terms", () => {
    const noisy = `${REPORT}\n${Array.from({ length: 30 }, (_, i) => `2023-09-14 10:21:${String(i).padStart(2, '0')} DEBUG urllib3.connectionpool retry ${i} python3 venv`).join('\n')}`;
    expect(weightQueryTerms(noisy, { maxTerms: 5 }).terms).toContain('urllib3');
    const terms = weightQueryTerms(stripReportNoise(noisy).text, { maxTerms: 5 }).terms;
    expect(terms).toEqual(expect.arrayContaining(['capsys', 'capture']));
    expect(terms).not.toContain('urllib3');
  });

  it('reads CRLF line endings (issue bodies from the GitHub API) like LF', () => {
    const crlf = stripReportNoise(REPORT.replace(/\n/g, '\r\n'));
    expect(crlf).toEqual(stripReportNoise(REPORT));
  });

  it('loses nothing the evidence extractor reads from frames (it reads the whole query)', () => {
    expect(extractQueryEvidence(REPORT).mentions).toContainEqual({ kind: 'frame', path: 'home/me/.venv/lib/python3.11/site-packages/_pytest/capture.py', symbol: 'readouterr' });
  });

  it('returns prose, code and commit messages unchanged', () => {
    for (const text of [
      'Fix crash when the request body is empty\n\nThe parser now returns 400 (see #1234).',
      'def parse(x):\n    return int(x) + 1\n\nx = 1.5',
      'Bump version to 2.0.1',
      'Expected: the value 1.5 is kept\nActual: 2',
      'Version 5.0',
      'Python 3.4.2\n\nTest on the new interpreter.',
      'Release 2.0.1\n\n- pytest 8.1.1 is the minimum\n- click 8.0 as well',
    ]) expect(stripReportNoise(text)).toEqual({ text, droppedLines: 0, shortenedFrames: 0 });
  });

  it('answers a 65k-character line quickly (no backtracking blow-up)', () => {
    const long = `${'a'.repeat(30_000)} ${'1.'.repeat(17_000)}`;
    const started = performance.now();
    expect(stripReportNoise(long).text).toBe(long);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
