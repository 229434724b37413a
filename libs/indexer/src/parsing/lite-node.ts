import type Parser from 'tree-sitter';
import { fieldIdsOf, nativeBinding, type NativeBinding } from './parser-registry';

/** The TreeCursor members node-tree-sitter has but its typings lack. */
type Cursor = Parser.TreeCursor & { gotoDescendant(index: number): void };

/** Node types of a grammar by namedness (from its node-types.json), to skip a native call per node. */
interface Namedness {
  named: ReadonlySet<string>;
  anonymous: ReadonlySet<string>;
}

const namednessByGrammar = new WeakMap<object, Namedness>();

function namednessOf(language: unknown): Namedness | null {
  if (!language || typeof language !== 'object') return null;
  let known = namednessByGrammar.get(language);
  if (!known) {
    const info = (language as { nodeTypeInfo?: { type: string; named: boolean }[] }).nodeTypeInfo ?? [];
    const named = new Set(info.filter((i) => i.named).map((i) => i.type));
    const anonymous = new Set(info.filter((i) => !i.named).map((i) => i.type));
    // Types that are both (`class` the keyword and `class` the expression) are asked natively.
    for (const type of [...named]) {
      if (anonymous.has(type)) {
        named.delete(type);
        anonymous.delete(type);
      }
    }
    known = { named, anonymous };
    namednessByGrammar.set(language, known);
  }
  return known;
}

/**
 * A syntax node read through one TreeCursor, with its type, range and
 * namedness as plain properties. node-tree-sitter answers every `SyntaxNode`
 * property with a native call (plus an allocation, a weak reference and a
 * finalizer for every node it hands out); a cursor reads the same facts for a
 * fraction of that, and children are only listed for the nodes the chunker
 * actually opens. Field names are read only when asked for
 * (`childForFieldName`), by scanning the children with the cursor.
 *
 * Offsets are UTF-16 code-unit indexes into the parsed string, like
 * `SyntaxNode.startIndex` (node-tree-sitter parses JS strings as UTF-16).
 */
export class LiteNode {
  private kids: LiteNode[] | undefined;
  /** Cursor reader: pre-order index under the root (for `gotoDescendant`); -1 (found on demand) for anonymous nodes. */
  index = -1;
  /** Native reader: the node's marshalled words (6 from `wordsAt`). */
  words: Uint32Array | null = null;
  wordsAt = 0;

  constructor(
    private readonly reader: TreeReader,
    readonly type: string,
    readonly startIndex: number,
    /** -1 until asked for (the native reader pays one call for it). */
    private end: number,
    readonly isNamed: boolean,
    readonly parent: LiteNode | null,
    /** Position among the parent's children. */
    readonly ordinal: number,
  ) {}

  get endIndex(): number {
    if (this.end < 0) this.end = this.reader.endOf(this);
    return this.end;
  }

  get children(): LiteNode[] {
    return (this.kids ??= this.reader.childrenOf(this));
  }

  get namedChildren(): LiteNode[] {
    return this.children.filter((c) => c.isNamed);
  }

  get childCount(): number {
    return this.children.length;
  }

  get firstNamedChild(): LiteNode | null {
    return this.children.find((c) => c.isNamed) ?? null;
  }

  /** First child holding `field`, like `SyntaxNode.childForFieldName`. */
  childForFieldName(field: string): LiteNode | null {
    return this.reader.fieldChild(this, field, this.kids);
  }

  /** Descendants (pre-order) whose type is in `types`, opening only named nodes. */
  descendantsOfType(types: ReadonlySet<string>): LiteNode[] {
    const out: LiteNode[] = [];
    const visit = (node: LiteNode): void => {
      for (const child of node.children) {
        if (types.has(child.type)) out.push(child);
        if (child.isNamed) visit(child);
      }
    };
    visit(this);
    return out;
  }
}

interface TreeReader {
  readonly root: LiteNode;
  endOf(node: LiteNode): number;
  childrenOf(node: LiteNode): LiteNode[];
  fieldChild(node: LiteNode, field: string, listed: LiteNode[] | undefined): LiteNode | null;
}

/**
 * The root of `tree` as a {@link LiteNode}: read through node-tree-sitter's native binding when it
 * is the expected one (one call lists a node's children), else through a TreeCursor.
 */
export function liteRoot(tree: Parser.Tree): LiteNode {
  const native = nativeBinding();
  return (native ? new NativeTreeReader(tree, native) : new LiteTreeReader(tree)).root;
}

/**
 * Reads a tree through a single cursor; `root` is the tree's root as a {@link LiteNode}. The
 * fallback when the native binding is not the expected one. One difference: a field held by a
 * hidden child (TypeScript's `typeof import('x')`) is not seen here, while `childForFieldName`
 * (and the native reader) finds it; no definition, body or import field is affected.
 */
export class LiteTreeReader implements TreeReader {
  readonly root: LiteNode;
  private readonly cursor: Cursor;
  private readonly namedness: Namedness | null;
  /** Field lookups per node, by field name. */
  private readonly fieldCache = new Map<LiteNode, Map<string, LiteNode | null>>();

  constructor(tree: Parser.Tree) {
    this.cursor = tree.walk() as Cursor;
    this.namedness = namednessOf((tree as unknown as { language?: unknown }).language);
    const c = this.cursor;
    this.root = new LiteNode(this, c.nodeType, c.startIndex, c.endIndex, c.nodeIsNamed, null, 0);
    this.root.index = 0;
  }

  endOf(node: LiteNode): number {
    this.moveTo(node);
    return this.cursor.endIndex;
  }

  /** Puts the cursor on `node`, learning its descendant index on the way if needed. */
  private moveTo(node: LiteNode): void {
    const c = this.cursor;
    if (node.index >= 0) {
      c.gotoDescendant(node.index);
      return;
    }
    this.moveTo(node.parent!);
    c.gotoFirstChild();
    for (let i = 0; i < node.ordinal; i++) c.gotoNextSibling();
    node.index = c.currentDescendantIndex;
  }

  childrenOf(node: LiteNode): LiteNode[] {
    const c = this.cursor;
    this.moveTo(node);
    if (!c.gotoFirstChild()) return [];
    const out: LiteNode[] = [];
    let ordinal = 0;
    do out.push(this.current(node, ordinal++));
    while (c.gotoNextSibling());
    return out;
  }

  /** Scans the children's field names with the cursor; the found child is built on the spot unless already listed. */
  fieldChild(node: LiteNode, field: string, listed: LiteNode[] | undefined): LiteNode | null {
    let fields = this.fieldCache.get(node);
    const cached = fields?.get(field);
    if (cached !== undefined) return cached;
    const c = this.cursor;
    this.moveTo(node);
    let found: LiteNode | null = null;
    if (c.gotoFirstChild()) {
      let ordinal = 0;
      do {
        if (c.currentFieldName === field) {
          found = listed?.[ordinal] ?? this.current(node, ordinal);
          break;
        }
        ordinal++;
      } while (c.gotoNextSibling());
    }
    if (!fields) this.fieldCache.set(node, (fields = new Map()));
    fields.set(field, found);
    return found;
  }

  private current(parent: LiteNode, ordinal: number): LiteNode {
    const c = this.cursor;
    const type = c.nodeType;
    const known = this.namedness;
    const isNamed = known?.named.has(type) ? true : known?.anonymous.has(type) ? false : c.nodeIsNamed;
    const node = new LiteNode(this, type, c.startIndex, c.endIndex, isNamed, parent, ordinal);
    // Named nodes are the ones that get opened; anonymous tokens find their way on demand.
    if (isNamed) node.index = c.currentDescendantIndex;
    return node;
  }
}

const NODE_WORDS = 6;
/** tree-sitter's `ts_builtin_sym_error` (ERROR nodes are named but not in the symbol-name table). */
const ERROR_SYMBOL = 0xffff;
const typeNamesByGrammar = new WeakMap<object, (string | null)[]>();
const anonymousNamesByGrammar = new WeakMap<object, string[]>();

/**
 * Reads a tree through node-tree-sitter's binding (`NodeMethods`): a node is its 6 marshalled
 * words, `children` lists all children in one call (type id and start come with them), `endIndex`
 * is one more call per child, and a field child is one `childForFieldId` call.
 */
export class NativeTreeReader implements TreeReader {
  readonly root: LiteNode;
  private readonly methods: NativeBinding['NodeMethods'];
  private readonly names: (string | null)[];
  private readonly anonymousNames: string[];
  private readonly fieldCache = new Map<LiteNode, Map<string, LiteNode | null>>();
  private readonly fieldIds: Map<string, number>;

  constructor(
    private readonly tree: Parser.Tree,
    private readonly native: NativeBinding,
  ) {
    this.methods = native.NodeMethods;
    const language = (tree as unknown as { language: object }).language;
    let names = typeNamesByGrammar.get(language);
    if (!names) typeNamesByGrammar.set(language, (names = native.getNodeTypeNamesById(language)));
    this.names = names;
    this.fieldIds = fieldIdsOf(native, language);
    let anonymous = anonymousNamesByGrammar.get(language);
    if (!anonymous) anonymousNamesByGrammar.set(language, (anonymous = []));
    this.anonymousNames = anonymous;
    const rootNode = tree.rootNode as unknown as ArrayLike<number> & Parser.SyntaxNode;
    const root = new LiteNode(this, rootNode.type, rootNode.startIndex, rootNode.endIndex, true, null, 0);
    root.words = Uint32Array.from({ length: NODE_WORDS }, (_, k) => rootNode[k]);
    this.root = root;
  }

  endOf(node: LiteNode): number {
    this.marshal(node);
    return this.methods.endIndex(this.tree) as number;
  }

  private marshal(node: LiteNode): void {
    const buffer = this.native.nodeTransferArray;
    const words = node.words!;
    const at = node.wordsAt;
    for (let k = 0; k < NODE_WORDS; k++) buffer[k] = words[at + k];
  }

  /** A node from its words (in `block` at `at`) and `value`: its symbol id, or a node the wrapper had cached. */
  private build(block: Uint32Array, at: number, value: number | { type: string }, parent: LiteNode, ordinal: number): LiteNode {
    let type: string;
    let isNamed: boolean;
    if (typeof value === 'number') {
      // Named (regular) symbols have names in the table; anonymous ones are asked once per symbol.
      const name = value === ERROR_SYMBOL ? 'ERROR' : this.names[value];
      isNamed = name !== null && name !== undefined;
      if (isNamed) type = name!;
      else {
        let anonymous = this.anonymousNames[value];
        if (anonymous === undefined) {
          const buffer = this.native.nodeTransferArray;
          for (let k = 0; k < NODE_WORDS; k++) buffer[k] = block[at + k];
          anonymous = this.anonymousNames[value] = this.methods.type(this.tree) as string;
        }
        type = anonymous;
      }
    } else {
      type = value.type;
      isNamed = (value as unknown as Parser.SyntaxNode).isNamed;
    }
    const node = new LiteNode(this, type, block[at + 2] / 2, -1, isNamed, parent, ordinal);
    node.words = block;
    node.wordsAt = at;
    return node;
  }

  childrenOf(node: LiteNode): LiteNode[] {
    this.marshal(node);
    const found = this.methods.children(this.tree) as (number | ({ type: string } & ArrayLike<number>))[] | undefined;
    if (!found || found.length === 0) return [];
    // Copy the words out before the next call reuses the (possibly reallocated) transfer buffer.
    const buffer = this.native.nodeTransferArray;
    let block: Uint32Array;
    if (found.every((value) => typeof value === 'number')) {
      block = buffer.slice(0, found.length * NODE_WORDS);
    } else {
      // Some children were already wrapped (cached) by node-tree-sitter: their words live on the object.
      block = new Uint32Array(found.length * NODE_WORDS);
      for (let i = 0, offset = 0; i < found.length; i++) {
        const value = found[i];
        const source: ArrayLike<number> = typeof value === 'number' ? buffer : value;
        const from = typeof value === 'number' ? offset : 0;
        for (let k = 0; k < NODE_WORDS; k++) block[i * NODE_WORDS + k] = source[from + k];
        if (typeof value === 'number') offset += NODE_WORDS;
      }
    }
    const out: LiteNode[] = new Array(found.length);
    for (let i = 0; i < found.length; i++) out[i] = this.build(block, i * NODE_WORDS, found[i], node, i);
    return out;
  }

  fieldChild(node: LiteNode, field: string, listed: LiteNode[] | undefined): LiteNode | null {
    let fields = this.fieldCache.get(node);
    const cached = fields?.get(field);
    if (cached !== undefined) return cached;
    const fieldId = this.fieldIds.get(field);
    let value: number | ({ type: string } & ArrayLike<number>) | null | undefined = null;
    if (fieldId !== undefined) {
      this.marshal(node);
      value = this.methods.childForFieldId(this.tree, fieldId) as typeof value;
    }
    let found: LiteNode | null = null;
    if (value !== null && value !== undefined) {
      const block = new Uint32Array(NODE_WORDS);
      const buffer = this.native.nodeTransferArray;
      for (let k = 0; k < NODE_WORDS; k++) block[k] = typeof value === 'number' ? buffer[k] : value[k];
      found = this.build(block, 0, value, node, -1);
      if (listed) found = listed.find((c) => c.startIndex === found!.startIndex && c.type === found!.type && c.endIndex === found!.endIndex) ?? found;
    }
    if (!fields) this.fieldCache.set(node, (fields = new Map()));
    fields.set(field, found);
    return found;
  }
}
