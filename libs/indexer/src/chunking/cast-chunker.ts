import type { LiteNode } from '../parsing/lite-node';
import type { SymbolDefinition, SymbolKind } from '../symbols/file-symbols';
import { newDraft, type ChunkDraft } from './chunk-assembler';
import { isContainerKind, type LanguageSpec } from './language-spec';
import type { SourceText } from './source-text';

type Node = LiteNode;

/** A definition found while walking: the outer node (with wrappers) and the declaring node. */
interface Definition {
  outer: Node;
  inner: Node;
  kind: SymbolKind;
  name: string;
  /** Found lazily (`bodyOf`): methods of a class that fits its chunk never need it. */
  body?: Node | null;
}

interface Scope {
  parent: ChunkDraft;
  qualifier: string[];
  parentSymbol: string | null;
  inClass: boolean;
  /** Inside a function being split: nested definitions are just statements. */
  inFunction: boolean;
  sink: (start: number, end: number) => void;
}

const SIGNATURE_MAX = 240;

/**
 * cAST-style structural chunking: definitions become their own chunks
 * (file > class > method/function); the code around them is greedily merged
 * sibling-by-sibling up to the budget; anything too big is split recursively
 * along its children, and only a childless node is cut along lines.
 */
export class CastChunker {
  readonly drafts: ChunkDraft[] = [];
  readonly definitions: SymbolDefinition[] = [];
  private readonly fileDraft: ChunkDraft;
  private preludeOpen = true;
  /** Most recently placed chunk range, so a lone closing `}` can join it instead of becoming a chunk. */
  private lastPlaced: ChunkDraft | null = null;

  constructor(
    private readonly src: SourceText,
    private readonly spec: LanguageSpec,
    private readonly path: string,
    private readonly budget: number,
    private readonly isPython: boolean,
  ) {
    this.fileDraft = newDraft({ chunkType: 'file' });
    this.drafts.push(this.fileDraft);
  }

  run(root: Node): { drafts: ChunkDraft[]; file: ChunkDraft } {
    const scope: Scope = {
      parent: this.fileDraft,
      qualifier: [],
      parentSymbol: null,
      inClass: false,
      inFunction: false,
      sink: (start, end) => {
        if (this.preludeOpen && this.fileDraft.start < 0) {
          this.place(this.fileDraft, start, end);
        } else {
          const window = newDraft({ chunkType: 'window', parent: this.fileDraft });
          this.drafts.push(window);
          this.place(window, start, end);
        }
        this.preludeOpen = false;
      },
    };
    this.emitSequence(root.children, scope, null);
    return { drafts: this.drafts, file: this.fileDraft };
  }

  private textOf(node: Node): string {
    return this.src.text.slice(startOf(node), endOf(node));
  }

  private size(start: number, end: number): number {
    return this.src.size(start, end);
  }

  /** Greedy merge of siblings; definitions are emitted on their own. */
  private emitSequence(items: Node[], scope: Scope, leadStart: number | null): void {
    let gStart = -1;
    let gEnd = -1;
    let gFirst = -1;
    if (leadStart !== null && items.length > 0 && leadStart < startOf(items[0])) {
      gStart = leadStart;
      gEnd = startOf(items[0]);
      gFirst = 0;
    }
    const flush = (): void => {
      if (gStart >= 0 && gEnd > gStart && !this.joinPunctuation(gStart, gEnd)) scope.sink(gStart, gEnd);
      gStart = -1;
      gFirst = -1;
    };

    for (let i = 0; i < items.length; i++) {
      const node = items[i];
      const def = scope.inFunction ? null : this.classify(node);
      if (def) {
        let defStart = startOf(node);
        if (gStart >= 0) {
          // Comments, decorators and attributes right above a definition belong to it.
          let j = i - 1;
          let cursor = startOf(node);
          while (j >= gFirst && this.spec.leading.has(typeOf(items[j])) && this.adjacent(endOf(items[j]), cursor)) {
            cursor = startOf(items[j]);
            j--;
          }
          if (cursor < startOf(node) && this.size(cursor, startOf(node)) <= this.budget / 2) {
            defStart = cursor;
            gEnd = j >= gFirst ? endOf(items[j]) : cursor;
          }
        }
        flush();
        this.emitDefinition(def, defStart, scope);
        continue;
      }
      const s = this.size(startOf(node), endOf(node));
      // A group that fits stays one chunk; its members are still symbols (split, each is a chunk).
      if (s <= this.budget && !scope.inFunction && this.spec.definitionGroups.has(typeOf(node))) {
        this.collectNestedDefinitions(node, scope.qualifier, scope.parentSymbol, true);
      }
      if (s > this.budget) {
        // The pending small siblings (`const`, `walk =`) lead into the first piece of the split
        // node instead of becoming a fragment of their own.
        const lead = gStart >= 0 && gEnd > gStart ? gStart : null;
        gStart = -1;
        gFirst = -1;
        this.splitLarge(node, scope, lead);
        continue;
      }
      // Measure the whole range, not the sum of items: error recovery can leave text between siblings.
      if (gStart >= 0 && this.size(gStart, endOf(node)) > this.budget) flush();
      if (gStart < 0) {
        gStart = startOf(node);
        gFirst = i;
      }
      gEnd = endOf(node);
    }
    flush();
  }

  private place(draft: ChunkDraft, start: number, end: number): void {
    draft.start = start;
    draft.end = end;
    this.lastPlaced = draft;
  }

  /** Closing delimiters (`}`, `});`) extend the previous chunk when it is adjacent and has room. */
  private joinPunctuation(start: number, end: number): boolean {
    const last = this.lastPlaced;
    if (!last || last.end > start || end - start > 16) return false;
    const text = this.src.text;
    if (/[\w$]/.test(text.slice(start, end)) || text.slice(last.end, start).trim() !== '') return false;
    if (this.size(last.start, end) > this.budget) return false;
    last.end = end;
    return true;
  }

  /** Blank lines separate a comment from the definition below it. */
  private adjacent(end: number, nextStart: number): boolean {
    let newlines = 0;
    const text = this.src.text;
    for (let k = end; k < nextStart; k++) if (text.charCodeAt(k) === 10 && ++newlines > 1) return false;
    return true;
  }

  private splitLarge(node: Node, scope: Scope, leadStart: number | null = null): void {
    const children = this.flatten(node, null);
    const start = leadStart ?? startOf(node);
    if (children.length <= 1) {
      if (children.length === 1 && (startOf(children[0]) !== startOf(node) || endOf(children[0]) !== endOf(node))) {
        this.splitLarge(children[0], scope, start < startOf(children[0]) ? start : null);
        return;
      }
      this.splitLines(start, endOf(node), scope.sink);
      return;
    }
    this.emitSequence(children, scope, start < startOf(children[0]) ? start : null);
  }

  /** Cut a childless range into line groups within budget (a single huge line stays whole). */
  private splitLines(start: number, end: number, sink: (start: number, end: number) => void): void {
    const src = this.src;
    let line = src.lineOf(start);
    let chunkStart = start;
    let chunkSize = 0;
    while (chunkStart < end) {
      const lineEnd = Math.min(src.lineEnd(line), end);
      const lineStart = Math.max(src.lineStarts[line], chunkStart);
      const s = this.size(lineStart, lineEnd);
      if (chunkSize > 0 && chunkSize + s > this.budget) {
        sink(chunkStart, lineStart);
        chunkStart = lineStart;
        chunkSize = 0;
      }
      chunkSize += s;
      if (lineEnd >= end) break;
      line++;
    }
    if (end > chunkStart) sink(chunkStart, end);
  }

  /** Children of `node` with body containers (and the path down to `inner`) opened up. */
  private flatten(node: Node, inner: Node | null): Node[] {
    const out: Node[] = [];
    const expand = (n: Node): void => {
      for (const child of n.children) {
        const onPathToInner = inner !== null && contains(child, inner) && child.childCount > 0;
        if (onPathToInner || this.spec.bodies.has(typeOf(child))) expand(child);
        else out.push(child);
      }
    };
    expand(node);
    return out;
  }

  /** Named children with nested body containers opened (anonymous tokens never define anything). */
  private namedMembers(body: Node): Node[] {
    const out: Node[] = [];
    for (const child of body.namedChildren) {
      if (this.spec.bodies.has(typeOf(child))) out.push(...this.namedMembers(child));
      else out.push(child);
    }
    return out;
  }

  private classify(node: Node): Definition | null {
    const spec = this.spec;
    let inner = node;
    const wrapperFields = spec.wrappers[typeOf(node)];
    if (wrapperFields) {
      let found: Node | null = null;
      for (const field of wrapperFields) {
        found = node.childForFieldName(field);
        if (found) break;
      }
      if (!found) return null;
      inner = found;
      if (spec.wrappers[typeOf(inner)]) {
        const nested = this.classify(inner);
        return nested ? { ...nested, outer: node } : null;
      }
    }
    if (spec.variableDeclarations.includes(typeOf(inner))) return this.classifyVariable(node, inner);
    if (spec.assignmentStatements.includes(typeOf(inner))) return this.classifyAssignment(node, inner);
    const fieldName = spec.fieldDefinitions[typeOf(inner)];
    if (fieldName) return this.classifyField(node, inner, fieldName);
    const kind = spec.definitions[typeOf(inner)];
    if (!kind) return null;
    if (typeOf(inner) === 'mod_item' && !inner.childForFieldName('body')) return null;
    if (spec.definitionGroups.has(typeOf(inner)) && this.groupMembers(inner).length > 1) return null;
    const name = this.definitionName(inner, kind);
    if (!name && inner === node) return null;
    let finalKind = kind;
    if (typeOf(inner) === 'type_declaration' || typeOf(inner) === 'type_spec') {
      const spec = typeOf(inner) === 'type_spec' ? inner : inner.namedChildren.find((c) => typeOf(c) === 'type_spec');
      const typeNode = spec?.childForFieldName('type');
      finalKind = typeNode?.type === 'struct_type' ? 'struct' : typeNode?.type === 'interface_type' ? 'interface' : 'type';
    }
    return { outer: node, inner, kind: finalKind, name: name ?? 'default' };
  }

  /** The definitions of a group declaration (`type ( A …; B … )`), by the spec's definition types. */
  private groupMembers(group: Node): Node[] {
    return group.namedChildren.filter((c) => this.spec.definitions[typeOf(c)] !== undefined);
  }

  private classifyVariable(outer: Node, declaration: Node): Definition | null {
    const declarators = declaration.namedChildren.filter((c) => typeOf(c) === 'variable_declarator');
    if (declarators.length !== 1) return null;
    const value = declarators[0].childForFieldName('value');
    const kind = value ? this.valueKind(value) : null;
    if (!value || !kind) return null;
    const nameNode = declarators[0].childForFieldName('name');
    if (!nameNode || typeOf(nameNode) !== 'identifier') return null;
    return { outer, inner: declaration, kind, name: this.textOf(nameNode), body: value.childForFieldName('body') };
  }

  /**
   * CommonJS and prototype style: `module.exports = class Application {…}`, `exports.compose =
   * function (…) {…}`. Named after the value's own name, else the assigned property
   * (`module.exports` itself counts as the default export).
   */
  private classifyAssignment(outer: Node, statement: Node): Definition | null {
    const [assignment, ...rest] = statement.namedChildren;
    if (!assignment || rest.length > 0 || typeOf(assignment) !== 'assignment_expression') return null;
    const value = assignment.childForFieldName('right');
    const kind = value ? this.valueKind(value) : null;
    if (!value || !kind) return null;
    const ownName = value.childForFieldName('name');
    let name = ownName ? this.textOf(ownName) : null;
    if (!name) {
      const target = assignment.childForFieldName('left');
      const property = target && typeOf(target) === 'member_expression' ? target.childForFieldName('property') : target;
      if (!property || (typeOf(property) !== 'identifier' && typeOf(property) !== 'property_identifier')) return null;
      name = target && this.textOf(target) === 'module.exports' ? 'default' : this.textOf(property);
    }
    return { outer, inner: statement, kind, name, body: value.childForFieldName('body') };
  }

  /** A class field holding a function (`handleClick = () => {…}`): a method in all but syntax. */
  private classifyField(outer: Node, field: Node, nameField: string): Definition | null {
    const value = field.childForFieldName('value');
    const kind = value ? this.valueKind(value) : null;
    const nameNode = field.childForFieldName(nameField);
    if (!value || !kind || !nameNode) return null;
    return { outer, inner: field, kind, name: this.textOf(nameNode), body: value.childForFieldName('body') };
  }

  private valueKind(value: Node): SymbolKind | null {
    if (this.spec.functionValues.includes(typeOf(value))) return 'function';
    if (this.spec.classValues.includes(typeOf(value))) return 'class';
    return null;
  }

  private definitionName(inner: Node, kind: SymbolKind): string | null {
    if (typeOf(inner) === 'impl_item') {
      const type = inner.childForFieldName('type');
      return type ? this.textOf(type).replace(/<.*$/s, '') : null;
    }
    if (typeOf(inner) === 'type_declaration') {
      const spec = inner.namedChildren.find((c) => typeOf(c) === 'type_spec' || typeOf(c) === 'type_alias');
      const name = spec?.childForFieldName('name');
      return name ? this.textOf(name) : null;
    }
    const name = inner.childForFieldName('name');
    if (name) return this.textOf(name);
    return kind === 'function' || kind === 'class' ? null : null;
  }

  private body(def: Definition): Node | null {
    if (def.body === undefined) def.body = this.bodyOf(def.inner);
    return def.body;
  }

  private bodyOf(inner: Node): Node | null {
    if (typeOf(inner) === 'type_spec') return inner.childForFieldName('type');
    if (typeOf(inner) === 'type_declaration') {
      const spec = inner.namedChildren.find((c) => typeOf(c) === 'type_spec');
      return spec ? this.bodyOf(spec) : null;
    }
    return inner.childForFieldName('body');
  }

  private receiverType(inner: Node): string | null {
    const receiver = inner.childForFieldName('receiver');
    if (!receiver) return null;
    const match = /([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*\)\s*$/.exec(this.textOf(receiver));
    return match ? match[1] : null;
  }

  private emitDefinition(def: Definition, defStart: number, scope: Scope): void {
    const container = isContainerKind(def.kind);
    let kind: SymbolKind = def.kind;
    let qualifier = [...scope.qualifier, def.name];
    if (!container) {
      if (scope.inClass) kind = 'method';
      const receiver = typeOf(def.inner) === 'method_declaration' && !scope.inClass ? this.receiverType(def.inner) : null;
      if (receiver) qualifier = [...scope.qualifier, receiver, def.name];
      else if (kind === 'method' && !scope.inClass) kind = typeOf(def.inner) === 'method_definition' ? 'function' : kind;
    }
    const qualifiedName = qualifier.join('.');
    const end = endOf(def.outer);
    const draft = newDraft({
      chunkType: container ? 'class' : kind === 'method' ? 'method' : 'function',
      name: def.name,
      qualifiedName,
      signature: this.signature(def),
      docstring: this.docstring(def, defStart),
      parent: scope.parent,
      // A method chunk of a split class keeps the class header as context for embedding.
      headerLines: scope.inClass && scope.parent.signature ? [`in: ${scope.parent.signature}`] : undefined,
    });
    this.drafts.push(draft);
    this.preludeOpen = false;
    this.recordDefinition(def.name, qualifiedName, kind, scope.parentSymbol, startOf(def.outer), end);

    const childScopeBase = { qualifier, parentSymbol: qualifiedName };
    if (this.size(defStart, end) <= this.budget) {
      this.place(draft, defStart, end);
      const body = container ? this.body(def) : null;
      if (body) this.collectNestedDefinitions(body, qualifier, qualifiedName, def.kind === 'module');
      return;
    }

    const body = this.body(def);
    const items = body ? this.flattenDefinition(def.outer, body) : this.flatten(def.outer, def.inner);
    let first = true;
    const sink = (start: number, stop: number): void => {
      if (first) {
        this.place(draft, start, stop);
        first = false;
      } else {
        const part = newDraft({ ...draft, parent: draft, docstring: null, headerLines: undefined, id: undefined });
        this.drafts.push(part);
        this.place(part, start, stop);
      }
    };
    const lead = items.length > 0 && defStart < startOf(items[0]) ? defStart : null;
    // A module's functions stay functions; a class's become methods.
    const inClass = container && def.kind !== 'module';
    this.emitSequence(items, { ...childScopeBase, parent: draft, inClass, inFunction: !container, sink }, lead);
  }

  /** Outer node's children with the path down to the body opened and the body's children spliced in. */
  private flattenDefinition(outer: Node, body: Node): Node[] {
    const out: Node[] = [];
    const expand = (n: Node): void => {
      for (const child of n.children) {
        const onPathToBody = contains(child, body) && child.childCount > 0;
        if (onPathToBody || (this.spec.bodies.has(typeOf(child)) && contains(body, child))) expand(child);
        else out.push(child);
      }
    };
    expand(outer);
    return out;
  }

  /** Methods of a class that fits in one chunk are still symbols. */
  private collectNestedDefinitions(body: Node, qualifier: string[], parentSymbol: string | null, inModule = false): void {
    for (const child of this.namedMembers(body)) {
      const def = this.classify(child);
      if (!def) continue;
      const container = isContainerKind(def.kind);
      const kind: SymbolKind = container || inModule ? def.kind : 'method';
      const q = [...qualifier, def.name];
      this.recordDefinition(def.name, q.join('.'), kind, parentSymbol, startOf(def.outer), endOf(def.outer));
      const body = container ? this.body(def) : null;
      if (body) this.collectNestedDefinitions(body, q, q.join('.'), def.kind === 'module');
    }
  }

  private recordDefinition(name: string, qualifiedName: string, kind: SymbolKind, parent: string | null, start: number, end: number): void {
    const src = this.src;
    this.definitions.push({
      name,
      symbol: `${this.path}:${qualifiedName}`,
      kind,
      parent: parent ? `${this.path}:${parent}` : null,
      startLine: src.lineOf(start),
      endLine: src.lineOf(Math.max(start, end - 1)),
      startByte: src.byteOffset(start),
      endByte: src.byteOffset(end),
    });
  }

  private signature(def: Definition): string | null {
    const start = startOf(def.inner);
    const body = this.body(def);
    let end = body ? startOf(body) : endOf(def.inner);
    // Python comments between the header's `:` and the first statement sit before the body node.
    const colon = this.isPython && body ? def.inner.children.find((c) => typeOf(c) === ':') : undefined;
    if (colon) end = Math.min(end, endOf(colon));
    let raw = this.src.text.slice(start, end);
    if (/\/\/|\/\*|#/.test(raw)) raw = this.withoutComments(def.inner, start, end);
    if (!body) raw = raw.split('\n')[0];
    // Multi-line parameter lists read as one line: `def f(\n    self,\n)` → `def f(self)`.
    let sig = raw.replace(/\s+/g, ' ').replace(/([([]) /g, '$1').replace(/,? ([)\]])/g, '$1').trim();
    if (this.isPython) sig = sig.replace(/:$/, '');
    if (typeOf(def.inner) === 'type_spec' || typeOf(def.inner) === 'type_alias') sig = `type ${sig}`;
    sig = sig.replace(/(=>|=)$/, '$1').replace(/\s*\{$/, '').replace(/,$/, '');
    if (sig.length > SIGNATURE_MAX) sig = `${sig.slice(0, SIGNATURE_MAX - 1)}…`;
    return sig || null;
  }

  /** Text of [start, end) without the comment nodes in it (annotations and parameter lists can hold some). */
  private withoutComments(node: Node, start: number, end: number): string {
    const comments: Node[] = [];
    const visit = (parent: Node): void => {
      for (const child of parent.children) {
        if (startOf(child) >= end) break;
        if (endOf(child) <= start) continue;
        if (this.spec.comments.has(typeOf(child))) comments.push(child);
        else if (child.childCount > 0) visit(child);
      }
    };
    visit(node);
    let out = '';
    let at = start;
    for (const comment of comments) {
      out += `${this.src.text.slice(at, startOf(comment))} `;
      at = Math.min(end, endOf(comment));
    }
    return out + this.src.text.slice(at, end);
  }

  private docstring(def: Definition, defStart: number): string | null {
    if (this.isPython) {
      const first = this.body(def)?.firstNamedChild;
      const str = first?.type === 'expression_statement' ? first.firstNamedChild : null;
      if (str && typeOf(str) === 'string') return cleanPythonString(this.textOf(str));
      return null;
    }
    if (defStart >= startOf(def.outer)) {
      // Comments may also sit inside the wrapper (decorators before a class).
      return null;
    }
    const raw = this.src.text.slice(defStart, startOf(def.outer));
    const doc = cleanComment(raw);
    return doc || null;
  }
}

function typeOf(node: Node): string {
  return node.type;
}

function startOf(node: Node): number {
  return node.startIndex;
}

function endOf(node: Node): number {
  return node.endIndex;
}

function contains(outer: Node, inner: Node): boolean {
  return startOf(outer) <= startOf(inner) && endOf(outer) >= endOf(inner);
}

export function cleanComment(raw: string): string {
  return raw
    .split('\n')
    .filter((line) => !/^\s*(@|#\[)/.test(line))
    .map((line) =>
      line
        .replace(/^\s*(\/\*\*?|\*\/|\*(?!\/)|\/\/\/?|#)\s?/, '')
        .replace(/\s*\*\/\s*$/, '')
        .trimEnd(),
    )
    .join('\n')
    .trim();
}

function cleanPythonString(raw: string): string {
  return raw
    .replace(/^[rRbBuUfF]*("""|'''|"|')/, '')
    .replace(/("""|'''|"|')$/, '')
    .trim();
}
