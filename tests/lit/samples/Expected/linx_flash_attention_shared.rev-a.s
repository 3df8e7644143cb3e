linx assemble=A
; kernel flash_attention_shared: 21 blocks; B.ASSEMBLE field 5 is the parent's SizeCode on INIT, 0 after it (PTO 0.58.4)
BSTART.TLSU TLOAD, BF16
  B.IOT mask=1111, last, ->T<4KB>             # 0x000b6e13
  ; TLOAD  (%qt = tile.load %q)
BSTOP
BSTART.TLSU TLOAD, BF16
  B.IOT mask=1111, last, ->T<8KB>             # 0x000bee13
  ; TLOAD  (%kt = tile.load %k)
BSTOP
BSTART.TLSU TLOAD, BF16
  B.IOT mask=1111, last, ->U<8KB>             # 0x000bee93
  ; TLOAD  (%vt = tile.load %v)
BSTOP
BSTART.CUBE TMATMUL, FP32
  B.IOT T#2, T#1, mask=1111, last, ->T<8KB>   # 0x001bce13
  ; TMATMUL  (%0 = tile.matmul %qt, %kt)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT T#1, mask=1111, last, ->T<4KB>        # 0x000b5e13
  B.SUBVIEW 0, zero, 0, 6                     # 0x00000353
  ; TMULS  (%s = tile.muls %1, %2)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT T#1, mask=1111, last, ->T<512B>       # 0x0009de13
  ; TROWMAX  (%3 = tile.row_max %s)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT T#2, T#1, mask=1111, last, ->T<4KB>   # 0x001b4e13
  ; TROWEXPANDSUB  (%4 = tile.row_expand_sub %s, %3)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<4KB>        # 0x000b5e13
  ; TEXP  (%p = tile.exp %4)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT T#1, mask=1111, last, ->T<512B>       # 0x0009de13
  ; TROWSUM  (%5 = tile.row_sum %p)
BSTOP
BSTART.SFU TRECIP, FP32
  B.IOT T#1, mask=1111, last, ->T<512B>       # 0x0009de13
  ; TRECIP  (%6 = tile.recip %5)
BSTOP
BSTART.SFU TROWEXPANDMUL, FP32
  B.IOT T#3, T#1, mask=1111, last             # 0x00284e13
  B.IOS mask=1111, ->S0<4KB>                  # 0x00031e13
  B.ASSEMBLE 1, 0, zero, 0, 7                 # 0x800013d3
  ; TROWEXPANDMUL  (%7 = tile.row_expand_mul %p, %6)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT T#7, mask=1111, last, ->T<4KB>        # 0x006b5e13
  B.SUBVIEW 0, zero, 32, 6                    # 0x02000353
  ; TMULS  (%s_1 = tile.muls %8, %9)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT T#1, mask=1111, last, ->T<512B>       # 0x0009de13
  ; TROWMAX  (%10 = tile.row_max %s_1)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT T#2, T#1, mask=1111, last, ->T<4KB>   # 0x001b4e13
  ; TROWEXPANDSUB  (%11 = tile.row_expand_sub %s_1, %10)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<4KB>        # 0x000b5e13
  ; TEXP  (%p_1 = tile.exp %11)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT T#1, mask=1111, last, ->T<512B>       # 0x0009de13
  ; TROWSUM  (%12 = tile.row_sum %p_1)
BSTOP
BSTART.SFU TRECIP, FP32
  B.IOT T#1, mask=1111, last, ->T<512B>       # 0x0009de13
  ; TRECIP  (%13 = tile.recip %12)
BSTOP
BSTART.SFU TROWEXPANDMUL, FP32
  B.IOT T#3, T#1, mask=1111, last             # 0x00284e13
  B.IOS mask=1111, ->S0<4KB>                  # 0x00031e13
  B.ASSEMBLE 0, 1, zero, 32, 0                # 0x02001853
  ; TROWEXPANDMUL  (%14 = tile.row_expand_mul %p_1, %13)
BSTOP
BSTART.VEC TCVT, BF16
  B.IOT mask=1111, last, ->T<4KB>             # 0x000b6e13
  B.IOS S0, mask=1111                         # 0x00001e13
  ; TCVT  (%16 = tile.cast %15)
BSTOP
BSTART.CUBE TMATMUL, FP32
  B.IOT T#1, U#1, mask=1111, last, ->T<8KB>   # 0x400bce13
  ; TMATMUL  (%17 = tile.matmul %16, %vt)
BSTOP
BSTART.TLSU TSTORE, FP32
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  ; TSTORE  (tile.store %17, %o)
BSTOP
