import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * A tiny but valid BERT-like sentence-embedding model written from scratch for the tests
 * (no weights can be downloaded here): a WordPiece tokenizer over a small vocabulary, and an
 * ONNX graph `last_hidden_state = Gather(embeddings, input_ids) * attention_mask`. Mean pooling
 * over it gives the average of the token vectors, so texts with the same tokens embed the same,
 * word order does not matter, and overlapping words give a positive cosine.
 */

// ---- a minimal protobuf writer (ONNX files are protobuf; only the wire types ONNX needs) ----
type Field = Uint8Array;
const enc = new TextEncoder();

function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const key = (field: number, wire: number) => varint((field << 3) | wire);
const concat = (parts: Array<Uint8Array | number[]>): Uint8Array => {
  const len = parts.reduce((s, p) => s + p.length, 0);
  const out = new Uint8Array(len);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
};
const int = (field: number, n: number | bigint): Field => Uint8Array.from([...key(field, 0), ...varint(n)]);
const bytes = (field: number, b: Uint8Array): Field => concat([key(field, 2), varint(b.length), b]);
const str = (field: number, s: string): Field => bytes(field, enc.encode(s));
const msg = (field: number, parts: Field[]): Field => bytes(field, concat(parts));

// ---- ONNX messages (field numbers from onnx.proto) ----
const TensorType = { FLOAT: 1, INT64: 7 } as const;
const AttrType = { INT: 2, INTS: 7 } as const;

function tensor(name: string, dims: number[], type: number, raw: Uint8Array): Field[] {
  return [...dims.map((d) => int(1, d)), int(2, type), str(8, name), bytes(9, raw)];
}
function valueInfo(field: number, name: string, elemType: number, dims: Array<number | string>): Field {
  const shape = dims.map((d) => msg(1, [typeof d === 'number' ? int(1, d) : str(2, d)]));
  return msg(field, [str(1, name), msg(2, [msg(1, [int(1, elemType), msg(2, shape)])])]);
}
function node(op: string, inputs: string[], outputs: string[], attrs: Field[] = []): Field {
  return msg(1, [...inputs.map((i) => str(1, i)), ...outputs.map((o) => str(2, o)), str(3, `${op}_${outputs[0]}`), str(4, op), ...attrs]);
}
const intAttr = (name: string, v: number): Field => msg(5, [str(1, name), int(3, v), int(20, AttrType.INT)]);

/** The ONNX model: ids [batch, seq] -> [batch, seq, dims]. */
export function tinyOnnxModel(table: Float32Array, vocabSize: number, dims: number): Uint8Array {
  const axes = new BigInt64Array([2n]);
  const graph: Field[] = [
    node('Gather', ['embeddings', 'input_ids'], ['token_vectors'], [intAttr('axis', 0)]),
    node('Cast', ['attention_mask'], ['mask_float'], [intAttr('to', TensorType.FLOAT)]),
    node('Unsqueeze', ['mask_float', 'mask_axes'], ['mask_3d']),
    node('Mul', ['token_vectors', 'mask_3d'], ['last_hidden_state']),
    str(2, 'tiny-bert'),
    msg(5, tensor('embeddings', [vocabSize, dims], TensorType.FLOAT, new Uint8Array(table.buffer, table.byteOffset, table.byteLength))),
    msg(5, tensor('mask_axes', [1], TensorType.INT64, new Uint8Array(axes.buffer))),
    valueInfo(11, 'input_ids', TensorType.INT64, ['batch_size', 'sequence_length']),
    valueInfo(11, 'attention_mask', TensorType.INT64, ['batch_size', 'sequence_length']),
    valueInfo(12, 'last_hidden_state', TensorType.FLOAT, ['batch_size', 'sequence_length', dims]),
  ];
  return concat([int(1, 8), str(2, 'sextant-tests'), msg(7, graph), msg(8, [str(1, ''), int(2, 13)])]);
}

export const TINY_VOCAB = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]', 'session', 'sessions', 'refresh', 'token', 'expire', 'user', 'login', 'invoice', 'ledger', 'balance', 'payment', 'the', 'a', 'of', 'is', '##s', '##ed', '##ing'];
export const TINY_DIMS = 16;

/** Deterministic token vectors; [PAD], [CLS], [SEP] and [MASK] are zero so they do not move the mean ([UNK] is a word like any other). */
function embeddingTable(vocab: readonly string[], dims: number): Float32Array {
  const table = new Float32Array(vocab.length * dims);
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  vocab.forEach((tok, i) => {
    for (let d = 0; d < dims; d++) table[i * dims + d] = tok.startsWith('[') && tok !== '[UNK]' ? 0 : rand();
  });
  return table;
}

/**
 * Writes the model the way the Hugging Face hub lays it out (`config.json`, `tokenizer.json`,
 * `tokenizer_config.json`, `onnx/model_quantized.onnx`) under `dir`; returns the file list.
 */
export function writeTinyModel(dir: string, { vocab = TINY_VOCAB, dims = TINY_DIMS } = {}): string[] {
  const files: Record<string, string | Uint8Array> = {
    'config.json': JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: dims, vocab_size: vocab.length, max_position_embeddings: 512, num_attention_heads: 1, num_hidden_layers: 0 }),
    'tokenizer_config.json': JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, cls_token: '[CLS]', sep_token: '[SEP]', pad_token: '[PAD]', unk_token: '[UNK]', mask_token: '[MASK]' }),
    'tokenizer.json': JSON.stringify(tokenizerJson(vocab)),
    'onnx/model_quantized.onnx': tinyOnnxModel(embeddingTable(vocab, dims), vocab.length, dims),
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), content);
  }
  return Object.keys(files);
}

function tokenizerJson(vocab: readonly string[]) {
  const ids = Object.fromEntries(vocab.map((t, i) => [t, i]));
  const special = (content: string) => ({ id: ids[content], content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'].map(special),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [ids['[CLS]']], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [ids['[SEP]']], tokens: ['[SEP]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: ids },
  };
}
