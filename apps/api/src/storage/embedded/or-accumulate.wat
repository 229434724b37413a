;; Kernels of KeywordIndex's blocked OR (or-accumulator.ts), over one block of slots.
;; Assemble with wabt: wat2wasm or-accumulate.wat -o or-accumulate.wasm, then base64 into KERNEL.
(module
  (import "env" "memory" (memory 1))

  ;; For each posting p in postings[0..n) (int32: slot << 8 | tf): with s = (p >>> 8) - base,
  ;;   acc[s] += w * tf / (tf + c0 + c1 * docLen[s])
  ;; in float64, the same operations in the same order as the JavaScript accumulation, so sums
  ;; are bit-identical. A posting with tf = 255 (count capped; the exact one is in the record) is
  ;; not added: its index goes to capped[] for the caller. Returns how many were capped.
  (func (export "accumulate")
        (param $postings i32) (param $n i32) (param $base i32) (param $w f64) (param $c0 f64) (param $c1 f64)
        (param $docLen i32) (param $acc i32) (param $capped i32) (result i32)
    (local $i i32) (local $v i32) (local $s i32) (local $tf f64) (local $at i32) (local $nc i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $v (i32.load (i32.add (local.get $postings) (i32.shl (local.get $i) (i32.const 2)))))
        (local.set $s (i32.sub (i32.shr_u (local.get $v) (i32.const 8)) (local.get $base)))
        (if (i32.eq (i32.and (local.get $v) (i32.const 255)) (i32.const 255))
          (then
            (i32.store (i32.add (local.get $capped) (i32.shl (local.get $nc) (i32.const 2))) (local.get $i))
            (local.set $nc (i32.add (local.get $nc) (i32.const 1))))
          (else
            (local.set $tf (f64.convert_i32_u (i32.and (local.get $v) (i32.const 255))))
            (local.set $at (i32.add (local.get $acc) (i32.shl (local.get $s) (i32.const 3))))
            (f64.store (local.get $at)
              (f64.add
                (f64.load (local.get $at))
                (f64.div
                  (f64.mul (local.get $w) (local.get $tf))
                  (f64.add
                    (f64.add (local.get $tf) (local.get $c0))
                    (f64.mul (local.get $c1)
                      (f64.convert_i32_s (i32.load (i32.add (local.get $docLen) (i32.shl (local.get $s) (i32.const 2))))))))))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))
    (local.get $nc))

;; Lists in out[] every s < n with acc[s] >= floor (floor > 0); returns how many. Eight slots
  ;; at a time are first compared through their maximum: after the first blocks the floor is the
  ;; heap's k-th score and almost no group reaches it.
  (func (export "collect") (param $acc i32) (param $n i32) (param $floor f64) (param $out i32) (result i32)
    (local $i i32) (local $at i32) (local $m i32) (local $f v128) (local $end8 i32) (local $j i32) (local $v f64)
    (local.set $f (f64x2.splat (local.get $floor)))
    (local.set $end8 (i32.and (local.get $n) (i32.const -8)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $at (i32.add (local.get $acc) (i32.shl (local.get $i) (i32.const 3))))
        (if (i32.lt_u (local.get $i) (local.get $end8))
          (then
            (if (i32.eqz (v128.any_true (f64x2.ge
                  (f64x2.max
                    (f64x2.max (v128.load (local.get $at)) (v128.load offset=16 (local.get $at)))
                    (f64x2.max (v128.load offset=32 (local.get $at)) (v128.load offset=48 (local.get $at))))
                  (local.get $f))))
              (then
                (local.set $i (i32.add (local.get $i) (i32.const 8)))
                (br $next)))
            (local.set $j (i32.const 8)))
          (else (local.set $j (i32.const 1))))
        ;; the group of j slots at i, one by one
        (loop $one
          (local.set $v (f64.load (local.get $at)))
          (if (f64.ge (local.get $v) (local.get $floor))
            (then
              (i32.store (i32.add (local.get $out) (i32.shl (local.get $m) (i32.const 2))) (local.get $i))
              (local.set $m (i32.add (local.get $m) (i32.const 1)))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (local.set $at (i32.add (local.get $at) (i32.const 8)))
          (local.set $j (i32.sub (local.get $j) (i32.const 1)))
          (br_if $one (i32.gt_s (local.get $j) (i32.const 0))))
        (br $next)))
    (local.get $m))
)
