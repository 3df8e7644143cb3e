linx assemble=B
; kernel row_softmax: 22 blocks; B.ASSEMBLE field 5 is the writer's SizeCode
BSTART.TLSU TLOAD, FP32
  B.IOT mask=1111, last, ->U<8KB>             # 0x000bee93
  ; TLOAD  (%0 = tile.load %x)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT U#1, mask=1111, last, ->T<512B>       # 0x0109de13
  B.SUBVIEW 0, zero, 0, 5                     # 0x000002d3
  ; TROWMAX  (%1 = tile.row_max %b)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT U#1, T#1, mask=1111, last, ->T<2KB>   # 0x010ace13
  B.SUBVIEW 0, zero, 0, 5                     # 0x000002d3
  ; TROWEXPANDSUB  (%2 = tile.row_expand_sub %b, %1)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<2KB>        # 0x000ade13
  ; TEXP  (%e = tile.exp %2)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT T#1, mask=1111, last, ->T<512B>       # 0x0009de13
  ; TROWSUM  (%3 = tile.row_sum %e)
BSTOP
BSTART.SFU TROWEXPANDDIV, FP32
  B.IOT T#2, T#1, mask=1111, last, ->T<8KB>   # 0x001bce13
  B.ASSEMBLE 1, 0, zero, 0, 5                 # 0x800012d3
  ; TROWEXPANDDIV  (%4 = tile.row_expand_div %e, %3)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT U#1, mask=1111, last, ->U<512B>       # 0x0109de93
  B.SUBVIEW 0, zero, 16, 5                    # 0x010002d3
  ; TROWMAX  (%5 = tile.row_max %b_1)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT U#2, U#1, mask=1111, last, ->U<2KB>   # 0x411ace93
  B.SUBVIEW 0, zero, 16, 5                    # 0x010002d3
  ; TROWEXPANDSUB  (%6 = tile.row_expand_sub %b_1, %5)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<2KB>        # 0x010ade93
  ; TEXP  (%e_1 = tile.exp %6)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT U#1, mask=1111, last, ->U<512B>       # 0x0109de93
  ; TROWSUM  (%7 = tile.row_sum %e_1)
BSTOP
BSTART.SFU TROWEXPANDDIV, FP32
  B.IOT U#2, U#1, mask=1111                   # 0x41104e13
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  B.ASSEMBLE 0, 0, zero, 16, 5                # 0x010012d3
  ; TROWEXPANDDIV  (%8 = tile.row_expand_div %e_1, %7)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT U#5, mask=1111, last, ->U<512B>       # 0x0149de93
  B.SUBVIEW 0, zero, 32, 5                    # 0x020002d3
  ; TROWMAX  (%9 = tile.row_max %b_2)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT U#6, U#1, mask=1111, last, ->U<2KB>   # 0x415ace93
  B.SUBVIEW 0, zero, 32, 5                    # 0x020002d3
  ; TROWEXPANDSUB  (%10 = tile.row_expand_sub %b_2, %9)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<2KB>        # 0x010ade93
  ; TEXP  (%e_2 = tile.exp %10)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT U#1, mask=1111, last, ->U<512B>       # 0x0109de93
  ; TROWSUM  (%11 = tile.row_sum %e_2)
BSTOP
BSTART.SFU TROWEXPANDDIV, FP32
  B.IOT U#2, U#1, mask=1111                   # 0x41104e13
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  B.ASSEMBLE 0, 0, zero, 32, 5                # 0x020012d3
  ; TROWEXPANDDIV  (%12 = tile.row_expand_div %e_2, %11)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT U#9, mask=1111, last, ->U<512B>       # 0x0189de93
  B.SUBVIEW 0, zero, 48, 5                    # 0x030002d3
  ; TROWMAX  (%13 = tile.row_max %b_3)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT U#10, U#1, mask=1111, last, ->U<2KB>  # 0x419ace93
  B.SUBVIEW 0, zero, 48, 5                    # 0x030002d3
  ; TROWEXPANDSUB  (%14 = tile.row_expand_sub %b_3, %13)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<2KB>        # 0x010ade93
  ; TEXP  (%e_3 = tile.exp %14)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT U#1, mask=1111, last, ->U<512B>       # 0x0109de93
  ; TROWSUM  (%15 = tile.row_sum %e_3)
BSTOP
BSTART.SFU TROWEXPANDDIV, FP32
  B.IOT U#2, U#1, mask=1111                   # 0x41104e13
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  B.ASSEMBLE 0, 1, zero, 48, 5                # 0x03001ad3
  ; TROWEXPANDDIV  (%16 = tile.row_expand_div %e_3, %15)
BSTOP
BSTART.TLSU TSTORE, FP32
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  ; TSTORE  (tile.store %17, %y)
BSTOP
