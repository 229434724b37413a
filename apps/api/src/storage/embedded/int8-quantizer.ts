/**
 * Scalar int8 quantisation as Qdrant does it: one scale per collection taken from the 0.99
 * quantile of |value|, values mapped to round(v / scale · 127) and clipped to ±127. With
 * unit-length vectors the int8 inner product is cosine × (127 / scale)².
 */
export const INT8_QUANTILE = 0.99;
const MAX_SAMPLE = 200_000;

/** The `quantile` of |values| (sampled deterministically for large inputs). */
export function absQuantile(values: Float32Array, quantile = INT8_QUANTILE): number {
  const stride = Math.max(1, Math.floor(values.length / MAX_SAMPLE));
  const sample = new Float32Array(Math.ceil(values.length / stride));
  for (let i = 0, j = 0; i < values.length; i += stride, j++) sample[j] = Math.abs(values[i]);
  sample.sort();
  const q = sample[Math.min(sample.length - 1, Math.floor(quantile * (sample.length - 1)))];
  return q > 0 ? q : 1;
}

/** Quantises `src` into `dst` at `offset` with the given scale. */
export function quantizeInto(src: Float32Array, scale: number, dst: Int8Array, offset = 0): void {
  const f = 127 / scale;
  for (let i = 0; i < src.length; i++) {
    const v = Math.round(src[i] * f);
    dst[offset + i] = v > 127 ? 127 : v < -127 ? -127 : v;
  }
}

/** Copy of `v` scaled to unit length (zero vectors stay zero). */
export function normalize(v: Float32Array | readonly number[]): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i] * out[i];
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}
