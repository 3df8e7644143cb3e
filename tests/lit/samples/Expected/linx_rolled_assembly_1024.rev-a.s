linx assemble=A
; kernel rolled_rows_1024: 19 blocks; B.ASSEMBLE field 5 is the parent's SizeCode on INIT, 0 after it (PTO 0.58.4)
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->T<128B>            # 0x0008ee13
  ; TLOAD  (%0 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<128B>       # 0x0008de13
  ; TEXP  (%1 = tile.exp %0)
BSTOP
BSTART.VEC TINSERT, FP32
  B.IOT T#1, mask=1111, last, ->T<128B>       # 0x0008de13
  ; TINSERT  (%carrier_1 = tile.assemble %carrier, %1)
BSTOP
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->T<128B>            # 0x0008ee13
  ; TLOAD  (%2 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<128B>       # 0x0008de13
  ; TEXP  (%3 = tile.exp %2)
BSTOP
BSTART.VEC TINSERT, FP32
  B.IOT T#3, T#1, mask=1111, last, ->T<128B>  # 0x0028ce13
  B.ASSEMBLE 1, 0, zero, 0, 10                # 0x80001553
  ; TINSERT  (%carrier_2 = tile.assemble %carrier_1, %3)
BSTOP
; loop j_carrier = 1 .. 511 step 1 (the blocks up to its end run once per iteration)
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<128B>            # 0x0008ee93
  ; TLOAD  (%4 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<128B>       # 0x0108de93
  ; TEXP  (%5 = tile.exp %4)
BSTOP
BSTART.VEC TINSERT, FP32
  B.IOT U#1, mask=1111, last, ->U<128B>       # 0x0108de93
  ; TINSERT  (%carrier_4 = tile.assemble %carrier_3, %5)
BSTOP
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<128B>            # 0x0008ee93
  ; TLOAD  (%6 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<128B>       # 0x0108de93
  ; TEXP  (%7 = tile.exp %6)
BSTOP
; a0 = j_carrier (CELLs)
BSTART.VEC TINSERT, FP32
  B.IOT U#3, U#1, mask=1111, last, ->T<128B>  # 0x4128ce13
  B.ASSEMBLE 0, 0, a0, 0, 0                   # 0x00011053
  ; TINSERT  (%carrier_5 = tile.assemble %carrier_4, %7)
BSTOP
; end loop j_carrier
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<128B>            # 0x0008ee93
  ; TLOAD  (%8 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<128B>       # 0x0108de93
  ; TEXP  (%9 = tile.exp %8)
BSTOP
BSTART.VEC TINSERT, FP32
  B.IOT U#1, mask=1111, last, ->U<128B>       # 0x0108de93
  ; TINSERT  (%carrier_7 = tile.assemble %carrier_6, %9)
BSTOP
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<128B>            # 0x0008ee93
  ; TLOAD  (%10 = tile.load %x)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<128B>       # 0x0108de93
  ; TEXP  (%11 = tile.exp %10)
BSTOP
BSTART.VEC TINSERT, FP32
  B.IOT U#3, U#1, mask=1111, last, ->T<128B>  # 0x4128ce13
  B.ASSEMBLE 0, 1, zero, 511, 0               # 0x1ff01853
  ; TINSERT  (%carrier_8 = tile.assemble %carrier_7, %11)
BSTOP
BSTART.TLSU TSTORE, FP32
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  ; TSTORE  (tile.store %12, %y)
BSTOP
