linx assemble=A
; kernel rolled_rows: 7 blocks; B.ASSEMBLE field 5 is the parent's SizeCode on INIT, 0 after it (PTO 0.58.4)
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->T<128B>            # 0x0008ee13
  ; TLOAD  (%0 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<128B>       # 0x0008de13
  B.ASSEMBLE 1, 0, zero, 0, 10                # 0x80001553
  ; TEXP  (%1 = tile.exp %0)
BSTOP
; loop j = 1 .. 511 step 1 (the blocks up to its end run once per iteration)
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<128B>            # 0x0008ee93
  ; TLOAD  (%2 = tile.load %x)
BSTOP
; a0 = j (CELLs)
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->T<128B>       # 0x0108de13
  B.ASSEMBLE 0, 0, a0, 0, 0                   # 0x00011053
  ; TEXP  (%3 = tile.exp %2)
BSTOP
; end loop j
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<128B>            # 0x0008ee93
  ; TLOAD  (%4 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->T<128B>       # 0x0108de13
  B.ASSEMBLE 0, 1, zero, 511, 0               # 0x1ff01853
  ; TEXP  (%5 = tile.exp %4)
BSTOP
BSTART.TLSU TSTORE, FP32
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  ; TSTORE  (tile.store %6, %y)
BSTOP
