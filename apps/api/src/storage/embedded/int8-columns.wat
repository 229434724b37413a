(module
  (import "env" "memory" (memory 1 65536))
  ;; out[s] = sum_j weights[j] * column_j[s] for s in [0, n), n a multiple of 16: the exact integer
  ;; inner product (int8 x int8 -> int16, int32 sums). Columns come in pairs: columns holds 2m byte
  ;; addresses (i32), weights m i32 each packing two int16 weights in [-127, 127] (column 2p in the
  ;; low half, 2p + 1 in the high half; an odd last column is paired with weight 0). Each pair's
  ;; bytes are interleaved and multiplied-and-added in one i32x4.dot_i16x8_s: exact, as the
  ;; products are at most 127 * 127. Returns how many groups of 16 slots hold a score above
  ;; floor; their first slots are written to groups (i32), so the caller reads only those.
  (func (export "score") (param $columns i32) (param $weights i32) (param $m i32) (param $n i32) (param $out i32) (param $floor i32) (param $groups i32) (result i32)
    (local $s i32) (local $j i32) (local $found i32) (local $v v128) (local $u v128) (local $w v128) (local $lo v128) (local $hi v128) (local $f v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local.set $f (i32x4.splat (local.get $floor)))
    (block $done
      (loop $slots
        (br_if $done (i32.ge_u (local.get $s) (local.get $n)))
        (local.set $a0 (v128.const i64x2 0 0))
        (local.set $a1 (v128.const i64x2 0 0))
        (local.set $a2 (v128.const i64x2 0 0))
        (local.set $a3 (v128.const i64x2 0 0))
        (local.set $j (i32.const 0))
        (block $dimsDone
          (loop $dims
            (br_if $dimsDone (i32.ge_u (local.get $j) (local.get $m)))
            (local.set $v (v128.load (i32.add (i32.load (i32.add (local.get $columns) (i32.shl (local.get $j) (i32.const 3)))) (local.get $s))))
            (local.set $u (v128.load (i32.add (i32.load offset=4 (i32.add (local.get $columns) (i32.shl (local.get $j) (i32.const 3)))) (local.get $s))))
            (local.set $w (i32x4.splat (i32.load (i32.add (local.get $weights) (i32.shl (local.get $j) (i32.const 2))))))
            (local.set $lo (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $v) (local.get $u)))
            (local.set $hi (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $v) (local.get $u)))
            (local.set $a0 (i32x4.add (local.get $a0) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $lo)) (local.get $w))))
            (local.set $a1 (i32x4.add (local.get $a1) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $lo)) (local.get $w))))
            (local.set $a2 (i32x4.add (local.get $a2) (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $hi)) (local.get $w))))
            (local.set $a3 (i32x4.add (local.get $a3) (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $hi)) (local.get $w))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $dims)))
        (v128.store offset=0 (i32.add (local.get $out) (i32.shl (local.get $s) (i32.const 2))) (local.get $a0))
        (v128.store offset=16 (i32.add (local.get $out) (i32.shl (local.get $s) (i32.const 2))) (local.get $a1))
        (v128.store offset=32 (i32.add (local.get $out) (i32.shl (local.get $s) (i32.const 2))) (local.get $a2))
        (v128.store offset=48 (i32.add (local.get $out) (i32.shl (local.get $s) (i32.const 2))) (local.get $a3))
        (if (v128.any_true (v128.or
              (v128.or (i32x4.gt_s (local.get $a0) (local.get $f)) (i32x4.gt_s (local.get $a1) (local.get $f)))
              (v128.or (i32x4.gt_s (local.get $a2) (local.get $f)) (i32x4.gt_s (local.get $a3) (local.get $f)))))
          (then
            (i32.store (i32.add (local.get $groups) (i32.shl (local.get $found) (i32.const 2))) (local.get $s))
            (local.set $found (i32.add (local.get $found) (i32.const 1)))))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (br $slots)))
    (local.get $found)))
