import * as fs from 'node:fs';
import * as path from 'node:path';

const WORDS = ['user', 'session', 'token', 'cache', 'request', 'response', 'parse', 'render', 'config', 'queue', 'worker', 'index', 'search', 'query', 'result', 'store', 'file', 'path', 'stream', 'buffer', 'auth', 'route', 'handler', 'payload', 'event', 'socket', 'retry', 'limit', 'batch', 'vector'];

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

const cap = (w: string) => w[0].toUpperCase() + w.slice(1);

/**
 * Writes `files` source files of ~4 KB (TypeScript, Python, Go, Markdown mix) with
 * realistic identifiers, so chunking, FTS and embeddings do real work.
 */
export function generateCorpus(root: string, files: number, seed = 42): { bytes: number } {
  const r = rng(seed);
  const pick = () => WORDS[Math.floor(r() * WORDS.length)];
  let bytes = 0;
  for (let i = 0; i < files; i++) {
    const dir = path.join(root, `pkg${i % 97}`, `mod${i % 13}`);
    fs.mkdirSync(dir, { recursive: true });
    const kind = i % 10;
    let text = '';
    let ext = 'ts';
    if (kind < 6) {
      const cls = `${cap(pick())}${cap(pick())}Service${i}`;
      text += `import { ${cap(pick())}Repository } from '../shared/${pick()}';\n\n/** Handles ${pick()} ${pick()} for the ${pick()} flow. */\nexport class ${cls} {\n  private readonly items = new Map<string, number>();\n\n`;
      for (let m = 0; m < 8; m++) {
        const name = `${pick()}${cap(pick())}${m}`;
        text += `  /** ${cap(pick())} the ${pick()} and ${pick()} ${pick()}. */\n  async ${name}(${pick()}Id: string, ${pick()}: number): Promise<number> {\n    const ${pick()}Value = this.items.get(${pick()}Id) ?? 0;\n    if (${pick()} > ${m * 7}) {\n      this.items.set(${pick()}Id, ${pick()}Value + ${pick()});\n    }\n    return ${pick()}Value * ${m + 1};\n  }\n\n`;
      }
      text += '}\n';
    } else if (kind < 9) {
      ext = kind === 8 ? 'go' : 'py';
      if (ext === 'py') {
        text += `"""${cap(pick())} ${pick()} helpers."""\nimport os\n\n`;
        for (let f = 0; f < 10; f++) text += `def ${pick()}_${pick()}_${f}(${pick()}, ${pick()}=None):\n    """${cap(pick())} ${pick()} ${pick()}."""\n    result = ${pick()} or {}\n    for key in range(${f + 3}):\n        result[key] = key * ${f}\n    return result\n\n\n`;
      } else {
        text += `package ${pick()}\n\n`;
        for (let f = 0; f < 10; f++) text += `// ${cap(pick())}${cap(pick())}${f} ${pick()}s the ${pick()}.\nfunc ${cap(pick())}${cap(pick())}${f}(${pick()} int, ${pick()} string) (int, error) {\n\tif ${pick()} > ${f} {\n\t\treturn ${f}, nil\n\t}\n\treturn len(${pick()}), nil\n}\n\n`;
      }
    } else {
      ext = 'md';
      text += `# ${cap(pick())} ${pick()}\n\n`;
      for (let s = 0; s < 6; s++) text += `## ${cap(pick())} ${pick()}\n\n${Array.from({ length: 60 }, pick).join(' ')}.\n\n`;
    }
    const file = path.join(dir, `f${i}.${ext}`);
    fs.writeFileSync(file, text);
    bytes += text.length;
  }
  return { bytes };
}
