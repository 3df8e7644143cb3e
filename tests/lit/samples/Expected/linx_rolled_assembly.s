linx assemble=B
; kernel rolled_rows: 7 blocks; B.ASSEMBLE field 5 is the writer's SizeCode
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->T<128B>            # 0x0008ee13
  ; TLOAD  (%0 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<64KB>       # 0x000d5e13
  B.ASSEMBLE 1, 0, zero, 0, 1                 # 0x800010d3
  ; TEXP  (%1 = tile.exp %0)
BSTOP
; loop j = 1 .. 511 step 1 (the blocks up to its end run once per iteration)
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<128B>            # 0x0008ee93
  ; TLOAD  (%2 = tile.load %x)
BSTOP
; a0 = j (CELLs)
BSTART.SFU TEXP, FP32
  B.IOT U#1, T#1, mask=1111, last             # 0x01084e13
  B.ASSEMBLE 0, 0, a0, 0, 1                   # 0x000110d3
  ; TEXP  (%3 = tile.exp %2)
BSTOP
; end loop j
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<128B>            # 0x0008ee93
  ; TLOAD  (%4 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, T#1, mask=1111, last             # 0x01084e13
  B.ASSEMBLE 0, 1, zero, 511, 1               # 0x1ff018d3
  ; TEXP  (%5 = tile.exp %4)
BSTOP
BSTART.TLSU TSTORE, FP32
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  ; TSTORE  (tile.store %6, %y)
BSTOP
