import type Parser from 'tree-sitter';

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
  /** Pre-order index under the root (for `gotoDescendant`); -1 (found on demand) for anonymous nodes. */
  index = -1;

  constructor(
    private readonly reader: LiteTreeReader,
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly isNamed: boolean,
    readonly parent: LiteNode | null,
    /** Position among the parent's children. */
    readonly ordinal: number,
  ) {}

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

/** Reads a tree through a single cursor; `root` is the tree's root as a {@link LiteNode}. */
export class LiteTreeReader {
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
