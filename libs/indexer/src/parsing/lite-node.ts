import type Parser from 'tree-sitter';

/** The TreeCursor members node-tree-sitter has but its typings lack. */
type Cursor = Parser.TreeCursor & { gotoDescendant(index: number): void };

/**
 * A syntax node read through one TreeCursor, with its type, range, field and
 * namedness as plain properties. node-tree-sitter answers every `SyntaxNode`
 * property with a native call (1–9 µs each, plus a weak-ref cache entry per
 * node it hands out); a cursor reads the same facts in a fraction of that, and
 * children are only listed for the nodes the chunker actually opens.
 *
 * Offsets are UTF-16 code-unit indexes into the parsed string, like
 * `SyntaxNode.startIndex` (node-tree-sitter parses JS strings as UTF-16).
 */
export class LiteNode {
  private kids: LiteNode[] | undefined;

  constructor(
    private readonly reader: LiteTreeReader,
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    readonly isNamed: boolean,
    /** Field name in the parent (`name`, `body`, ...) or null. */
    readonly field: string | null,
    /** Pre-order index under the root, for `gotoDescendant`. */
    readonly index: number,
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

  /** First child holding `field`; scans with the cursor (without listing every child) until it is found. */
  childForFieldName(field: string): LiteNode | null {
    if (this.kids) return this.kids.find((c) => c.field === field) ?? null;
    return this.reader.fieldChild(this, field);
  }

  /** Descendants (pre-order) whose type is in `types`, opening only nodes that can contain them. */
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

  constructor(tree: Parser.Tree) {
    this.cursor = tree.walk() as Cursor;
    const c = this.cursor;
    this.root = new LiteNode(this, c.nodeType, c.startIndex, c.endIndex, c.nodeIsNamed, null, 0);
  }

  childrenOf(node: LiteNode): LiteNode[] {
    const c = this.cursor;
    c.gotoDescendant(node.index);
    if (!c.gotoFirstChild()) return [];
    const out: LiteNode[] = [];
    do {
      out.push(this.current());
    } while (c.gotoNextSibling());
    return out;
  }

  fieldChild(node: LiteNode, field: string): LiteNode | null {
    const c = this.cursor;
    c.gotoDescendant(node.index);
    if (!c.gotoFirstChild()) return null;
    do {
      if (c.currentFieldName === field) return this.current(field);
    } while (c.gotoNextSibling());
    return null;
  }

  private current(field?: string): LiteNode {
    const c = this.cursor;
    return new LiteNode(this, c.nodeType, c.startIndex, c.endIndex, c.nodeIsNamed, field ?? c.currentFieldName ?? null, c.currentDescendantIndex);
  }
}
