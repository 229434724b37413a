/** A package and its version on a line of its own: `attrs 23.1.0`, `Django==4.2.5`, `- click 8.1.7`, `pkg @ file:///…`. */
const PACKAGE_ROW = /^[ \t]*(?:[-*][ \t]+)?[A-Za-z][\w.-]*(?:\[[\w,.-]+\])?[ \t]*(?:(?:==|===|>=|<=|~=)[ \t]*v?\d[\w.+!-]*|[ \t]+v?\d+(?:\.[\w+!-]+)+|[ \t]+@[ \t]+\S+)[ \t]*$/;
/** Package rows count as a version list from this many on. */
const MIN_PACKAGE_ROWS = 3;
/** The header and rule of `pip list` / `conda list`: `Package  Version`, `------- -------`, `# Name  Version  Build`. */
const PACKAGE_TABLE_HEAD = /^[ \t]*(?:#[ \t]*)?(?:Package|Name)[ \t]+Version\b.*$|^[ \t]*-{3,}(?:[ \t]+-{3,})+[ \t]*$/i;
/** A log line led by a timestamp: `2023-09-14 10:21:07,118 DEBUG …`, `[2023-09-14 10:21:07 +0000] [4121] [INFO] …`, `10:21:07.118 INFO …`. */
const LOG_LINE = /^[ \t]*\[?(?:\d{4}[-/.]\d{2}[-/.]\d{2}[ T_]\d{1,2}:\d{2}|\d{2}:\d{2}:\d{2}[.,]\d+)/;
/** Environment lines: `- OS: Ubuntu 22.04`, `Python version: 3.11.4 (main, …)`, `**Flask version:** 2.3.2`, `Platform: linux`. */
const VERSION_LINE = /^[ \t]*(?:[-*][ \t]+)?(?:\*\*)?(?:[\w.-]+(?:[ \t]+[\w.-]+)?[ \t]+version|OS|Operating[ \t]+system|Platform|Python|Node(?:\.js)?|npm|yarn|Browser|Distro|Kernel|Arch(?:itecture)?)(?:\*\*)?[ \t]*:(?:\*\*)?[ \t]*\S[^\n]{0,120}$/i;
/** A stack frame's location: Python `File "/venv/lib/python3.11/site-packages/flask/app.py", line 12, in wsgi_app`, JS `at fn (/srv/node_modules/x/lib/y.js:1:2)`. */
const PY_FRAME_LINE = /^(?<indent>[ \t]*)File "(?<path>[^"\n]+)", line \d+(?:, in (?<fn>[\w<>.$]+))?[ \t]*$/;
const JS_FRAME_LINE = /^(?<indent>[ \t]*)at (?:(?:async )?(?<fn>[\w$.<>[\] ]{1,120}) \()?(?:file:\/\/)?(?<path>[^\s()]+?):\d+(?::\d+)?\)?[ \t]*$/;

/** What {@link stripReportNoise} kept and left out. */
export interface ReportProse {
  /** The query without the noise lines, frame locations cut to file name and function. */
  text: string;
  /** Lines left out whole: version lists, timestamped log lines, version/platform lines. */
  droppedLines: number;
  /** Stack-frame lines whose directories were left out. */
  shortenedFrames: number;
}

/**
 * The words of an issue report worth searching with. Reports paste their environment (`pip
 * list`, OS and Python versions), logs and tracebacks through site-packages beside the prose,
 * and those lines repeat words — `urllib3`, `python3`, `site`, `packages`, `venv`, `debug` — that
 * outweigh the problem's own words when a long query is cut to its strongest terms, and that
 * match a project's packaging files (`tox.ini`, `setup.cfg`). This leaves out lines that are
 * only a package and its version when there are at least three (a version list), `pip list`'s
 * header, timestamp-led log lines and environment lines (`OS:`, `Python:`, `<name> version:`),
 * and cuts each stack frame to its file name and function (`capture.py write`): the frames
 * themselves are read as evidence from the whole query ({@link extractQueryEvidence}), so
 * nothing they say about *where* is lost. Prose, code and exception lines stay as they are, and
 * so does the first line: a commit subject such as `Version 5.0` is the whole query.
 *
 * @example
 * stripReportNoise('Cookies vanish\n\n2023-09-14 10:21:07 DEBUG urllib3 retry').text // 'Cookies vanish\n'
 */
export function stripReportNoise(text: string): ReportProse {
  // Issue bodies from GitHub's API end their lines with \r\n.
  const lines = text.split(/\r?\n/);
  const title = lines.findIndex((l) => l.trim().length > 0);
  const packageRow = lines.map((l, i) => i !== title && l.length <= 400 && PACKAGE_ROW.test(l));
  const isVersionList = packageRow.filter(Boolean).length >= MIN_PACKAGE_ROWS;
  let droppedLines = 0;
  let shortenedFrames = 0;
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // The subject line is never noise ("Version 5.0" is a whole release commit), nor is a lone `- pytest 8.1` among prose.
    const isNoise = i !== title && line.length <= 400 && ((isVersionList && packageRow[i]) || PACKAGE_TABLE_HEAD.test(line) || LOG_LINE.test(line) || VERSION_LINE.test(line));
    if (isNoise) {
      droppedLines += 1;
      continue;
    }
    const frame = line.length <= 600 ? (PY_FRAME_LINE.exec(line) ?? JS_FRAME_LINE.exec(line))?.groups : undefined;
    if (frame) {
      const { indent, path, fn } = frame;
      const file = path.replace(/\\/g, '/').split('/').pop() ?? '';
      kept.push(`${indent}${file}${fn && !fn.startsWith('<') ? ` ${fn.trim()}` : ''}`);
      shortenedFrames += 1;
      continue;
    }
    kept.push(line);
  }
  if (!droppedLines && !shortenedFrames) return { text, droppedLines, shortenedFrames };
  return { text: kept.join('\n'), droppedLines, shortenedFrames };
}
