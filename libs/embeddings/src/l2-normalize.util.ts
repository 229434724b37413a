/**
 * Scales `vector` in place to unit length and returns it; an all-zero vector is left as is.
 *
 * @example
 * l2Normalize(Float32Array.of(3, 4)) // Float32Array [0.6, 0.8]
 */
export function l2Normalize(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i] * vector[i];
  if (sum === 0) return vector;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i] *= inv;
  return vector;
}
