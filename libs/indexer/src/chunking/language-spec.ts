import type { ParsedLanguage } from '../language/language';
import type { SymbolKind } from '../symbols/file-symbols';

/** Which tree-sitter node types mean what, per language. */
export interface LanguageSpec {
  /** Definition node type -> symbol kind (function kinds become `method` inside classes). */
  definitions: Record<string, SymbolKind>;
  /** Nodes that wrap a definition (`export_statement`, `decorated_definition`) and the fields holding it. */
  wrappers: Record<string, string[]>;
  /** `const f = () => {}` style: declaration types whose declarator holds a function or class value. */
  variableDeclarations: string[];
  /** `module.exports = class App {}`, `exports.f = function () {}`: statements holding such an assignment. */
  assignmentStatements: string[];
  /** Class fields holding a function or class (`onClick = () => {}`), and the field naming them. */
  fieldDefinitions: Record<string, string>;
  /** Declarations that may define several things at once (Go's `type ( A struct{…}; B int )`). */
  definitionGroups: Set<string>;
  functionValues: string[];
  classValues: string[];
  /** Containers whose children are flattened when a node is split (bodies, blocks). */
  bodies: Set<string>;
  /** Comment-like nodes attached to the following definition (comments, decorators, attributes). */
  leading: Set<string>;
  comments: Set<string>;
  imports: Set<string>;
}

const JS_DEFINITIONS: Record<string, SymbolKind> = {
  class_declaration: 'class',
  abstract_class_declaration: 'class',
  class: 'class',
  interface_declaration: 'interface',
  enum_declaration: 'enum',
  function_declaration: 'function',
  generator_function_declaration: 'function',
  function_expression: 'function',
  method_definition: 'method',
  // Signature-only members: abstract methods, and interface methods (TypeScript grammar only).
  abstract_method_signature: 'method',
  method_signature: 'method',
  // `namespace Geometry { … }`
  internal_module: 'module',
};

const TYPESCRIPT_ONLY = ['interface_declaration', 'enum_declaration', 'abstract_method_signature', 'method_signature', 'internal_module'];

function withoutTypeScript(definitions: Record<string, SymbolKind>): Record<string, SymbolKind> {
  return Object.fromEntries(Object.entries(definitions).filter(([type]) => !TYPESCRIPT_ONLY.includes(type)));
}

const js = (withTypes: boolean): LanguageSpec => ({
  definitions: withTypes ? JS_DEFINITIONS : withoutTypeScript(JS_DEFINITIONS),
  wrappers: { export_statement: ['declaration', 'value'] },
  variableDeclarations: ['lexical_declaration', 'variable_declaration'],
  assignmentStatements: ['expression_statement'],
  fieldDefinitions: { public_field_definition: 'name', field_definition: 'property' },
  definitionGroups: new Set(),
  functionValues: ['arrow_function', 'function_expression', 'function', 'generator_function'],
  classValues: ['class'],
  bodies: new Set(['class_body', 'statement_block', 'interface_body', 'enum_body', 'object_type', 'switch_body']),
  leading: new Set(['comment', 'decorator']),
  comments: new Set(['comment']),
  imports: new Set(['import_statement']),
});

const SPECS: Record<ParsedLanguage, LanguageSpec> = {
  typescript: js(true),
  tsx: js(true),
  javascript: js(false),
  python: {
    definitions: { class_definition: 'class', function_definition: 'function' },
    wrappers: { decorated_definition: ['definition'] },
    variableDeclarations: [],
    assignmentStatements: [],
    fieldDefinitions: {},
    definitionGroups: new Set(),
    functionValues: [],
    classValues: [],
    bodies: new Set(['block']),
    leading: new Set(['comment']),
    comments: new Set(['comment']),
    imports: new Set(['import_statement', 'import_from_statement', 'future_import_statement']),
  },
  go: {
    // One `type_spec` per type of a grouped `type ( … )`; a lone `type X …` is its `type_declaration`.
    definitions: { function_declaration: 'function', method_declaration: 'method', type_declaration: 'type', type_spec: 'type', type_alias: 'type' },
    wrappers: {},
    variableDeclarations: [],
    assignmentStatements: [],
    fieldDefinitions: {},
    definitionGroups: new Set(['type_declaration']),
    functionValues: [],
    classValues: [],
    bodies: new Set(['block', 'statement_list', 'field_declaration_list', 'interface_type', 'struct_type']),
    leading: new Set(['comment']),
    comments: new Set(['comment']),
    imports: new Set(['import_declaration']),
  },
  java: {
    definitions: {
      class_declaration: 'class',
      interface_declaration: 'interface',
      enum_declaration: 'enum',
      record_declaration: 'class',
      annotation_type_declaration: 'interface',
      method_declaration: 'method',
      constructor_declaration: 'method',
      compact_constructor_declaration: 'method',
    },
    wrappers: {},
    variableDeclarations: [],
    assignmentStatements: [],
    fieldDefinitions: {},
    definitionGroups: new Set(),
    functionValues: [],
    classValues: [],
    bodies: new Set(['class_body', 'interface_body', 'enum_body', 'enum_body_declarations', 'block', 'constructor_body', 'annotation_type_body', 'switch_block']),
    leading: new Set(['line_comment', 'block_comment']),
    comments: new Set(['line_comment', 'block_comment']),
    imports: new Set(['import_declaration']),
  },
  rust: {
    definitions: {
      struct_item: 'struct',
      enum_item: 'enum',
      trait_item: 'trait',
      impl_item: 'impl',
      function_item: 'function',
      // A trait's required methods: signatures without a body, like a Java interface's.
      function_signature_item: 'function',
      union_item: 'struct',
      // Inline modules (`mod tests { … }`); `mod name;` has no body and defines nothing here.
      mod_item: 'module',
    },
    wrappers: {},
    variableDeclarations: [],
    assignmentStatements: [],
    fieldDefinitions: {},
    definitionGroups: new Set(),
    functionValues: [],
    classValues: [],
    bodies: new Set(['declaration_list', 'block', 'field_declaration_list', 'enum_variant_list', 'match_block']),
    leading: new Set(['line_comment', 'block_comment', 'attribute_item']),
    comments: new Set(['line_comment', 'block_comment']),
    imports: new Set(['use_declaration', 'extern_crate_declaration']),
  },
};

export function languageSpec(lang: ParsedLanguage): LanguageSpec {
  return SPECS[lang];
}

const CONTAINER_KINDS: ReadonlySet<SymbolKind> = new Set(['class', 'interface', 'enum', 'struct', 'trait', 'impl', 'module', 'type']);

export function isContainerKind(kind: SymbolKind): boolean {
  return CONTAINER_KINDS.has(kind);
}
