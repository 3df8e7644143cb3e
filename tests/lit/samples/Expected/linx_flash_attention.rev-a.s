linx assemble=A
; kernel flash_attention: 62 blocks; B.ASSEMBLE field 5 is the parent's SizeCode on INIT, 0 after it (PTO 0.58.4)
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
BSTART.TLSU TMOV, FP32
  B.IOT T#1, mask=1111, last, ->U<8KB>        # 0x000bde93
  ; TMOV  (%scores = tile.move %0)
BSTOP
BSTART.VEC TEXPANDS, FP32
  B.IOT mask=1111, last, ->T<1KB>             # 0x000a6e13
  ; TEXPANDS  (%m = tile.full %1)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#1, mask=1111, last, ->T<2KB>        # 0x010ade13
  B.SUBVIEW 0, zero, 0, 5                     # 0x000002d3
  ; TMULS  (%4 = tile.muls %2, %3)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  ; TROWMAX  (%5 = tile.row_max %4)
BSTOP
BSTART.VEC TMAX, FP32
  B.IOT T#3, T#1, mask=1111, last, ->T<1KB>   # 0x002a4e13
  ; TMAX  (%m_1 = tile.max %m, %5)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#1, mask=1111, last, ->T<2KB>        # 0x010ade13
  B.SUBVIEW 0, zero, 16, 5                    # 0x010002d3
  ; TMULS  (%8 = tile.muls %6, %7)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  ; TROWMAX  (%9 = tile.row_max %8)
BSTOP
BSTART.VEC TMAX, FP32
  B.IOT T#3, T#1, mask=1111, last, ->T<1KB>   # 0x002a4e13
  ; TMAX  (%m_2 = tile.max %m_1, %9)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#1, mask=1111, last, ->T<2KB>        # 0x010ade13
  B.SUBVIEW 0, zero, 32, 5                    # 0x020002d3
  ; TMULS  (%12 = tile.muls %10, %11)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  ; TROWMAX  (%13 = tile.row_max %12)
BSTOP
BSTART.VEC TMAX, FP32
  B.IOT T#3, T#1, mask=1111, last, ->T<1KB>   # 0x002a4e13
  ; TMAX  (%m_3 = tile.max %m_2, %13)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#1, mask=1111, last, ->T<2KB>        # 0x010ade13
  B.SUBVIEW 0, zero, 48, 5                    # 0x030002d3
  ; TMULS  (%16 = tile.muls %14, %15)
BSTOP
BSTART.SFU TROWMAX, FP32
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  ; TROWMAX  (%17 = tile.row_max %16)
BSTOP
BSTART.VEC TMAX, FP32
  B.IOT T#3, T#1, mask=1111, last, ->U<1KB>   # 0x002a4e93
  ; TMAX  (%m_4 = tile.max %m_3, %17)
BSTOP
BSTART.VEC TEXPANDS, FP32
  B.IOT mask=1111, last, ->T<1KB>             # 0x000a6e13
  ; TEXPANDS  (%l = tile.full %18)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#2, mask=1111, last, ->T<2KB>        # 0x011ade13
  B.SUBVIEW 0, zero, 0, 5                     # 0x000002d3
  ; TMULS  (%21 = tile.muls %19, %20)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT T#1, U#1, mask=1111, last, ->T<2KB>   # 0x400ace13
  ; TROWEXPANDSUB  (%22 = tile.row_expand_sub %21, %m_4)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<2KB>        # 0x000ade13
  ; TEXP  (%23 = tile.exp %22)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  ; TROWSUM  (%24 = tile.row_sum %23)
BSTOP
BSTART.VEC TADD, FP32
  B.IOT T#5, T#1, mask=1111, last, ->T<1KB>   # 0x004a4e13
  ; TADD  (%l_1 = tile.add %l, %24)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#2, mask=1111, last, ->T<2KB>        # 0x011ade13
  B.SUBVIEW 0, zero, 16, 5                    # 0x010002d3
  ; TMULS  (%27 = tile.muls %25, %26)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT T#1, U#1, mask=1111, last, ->T<2KB>   # 0x400ace13
  ; TROWEXPANDSUB  (%28 = tile.row_expand_sub %27, %m_4)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<2KB>        # 0x000ade13
  ; TEXP  (%29 = tile.exp %28)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  ; TROWSUM  (%30 = tile.row_sum %29)
BSTOP
BSTART.VEC TADD, FP32
  B.IOT T#5, T#1, mask=1111, last, ->T<1KB>   # 0x004a4e13
  ; TADD  (%l_2 = tile.add %l_1, %30)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#2, mask=1111, last, ->T<2KB>        # 0x011ade13
  B.SUBVIEW 0, zero, 32, 5                    # 0x020002d3
  ; TMULS  (%33 = tile.muls %31, %32)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT T#1, U#1, mask=1111, last, ->T<2KB>   # 0x400ace13
  ; TROWEXPANDSUB  (%34 = tile.row_expand_sub %33, %m_4)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<2KB>        # 0x000ade13
  ; TEXP  (%35 = tile.exp %34)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  ; TROWSUM  (%36 = tile.row_sum %35)
BSTOP
BSTART.VEC TADD, FP32
  B.IOT T#5, T#1, mask=1111, last, ->T<1KB>   # 0x004a4e13
  ; TADD  (%l_3 = tile.add %l_2, %36)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#2, mask=1111, last, ->T<2KB>        # 0x011ade13
  B.SUBVIEW 0, zero, 48, 5                    # 0x030002d3
  ; TMULS  (%39 = tile.muls %37, %38)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT T#1, U#1, mask=1111, last, ->T<2KB>   # 0x400ace13
  ; TROWEXPANDSUB  (%40 = tile.row_expand_sub %39, %m_4)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<2KB>        # 0x000ade13
  ; TEXP  (%41 = tile.exp %40)
BSTOP
BSTART.SFU TROWSUM, FP32
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  ; TROWSUM  (%42 = tile.row_sum %41)
BSTOP
BSTART.VEC TADD, FP32
  B.IOT T#5, T#1, mask=1111, last, ->T<1KB>   # 0x004a4e13
  ; TADD  (%l_4 = tile.add %l_3, %42)
BSTOP
BSTART.SFU TRECIP, FP32
  B.IOT T#1, mask=1111, last, ->U<1KB>        # 0x000a5e93
  ; TRECIP  (%inv = tile.recip %l_4)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#3, mask=1111, last, ->T<2KB>        # 0x012ade13
  B.SUBVIEW 0, zero, 0, 5                     # 0x000002d3
  ; TMULS  (%45 = tile.muls %43, %44)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT T#1, U#2, mask=1111, last, ->T<2KB>   # 0x440ace13
  ; TROWEXPANDSUB  (%46 = tile.row_expand_sub %45, %m_4)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT T#1, mask=1111, last, ->T<2KB>        # 0x000ade13
  ; TEXP  (%e = tile.exp %46)
BSTOP
BSTART.SFU TROWEXPANDMUL, FP32
  B.IOT T#1, U#1, mask=1111, last, ->T<2KB>   # 0x400ace13
  ; TROWEXPANDMUL  (%47 = tile.row_expand_mul %e, %inv)
BSTOP
BSTART.VEC TCVT, BF16
  B.IOT T#1, mask=1111, last, ->T<1KB>        # 0x000a5e13
  B.ASSEMBLE 1, 0, zero, 0, 6                 # 0x80001353
  ; TCVT  (%48 = tile.cast %47)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#3, mask=1111, last, ->U<2KB>        # 0x012ade93
  B.SUBVIEW 0, zero, 16, 5                    # 0x010002d3
  ; TMULS  (%51 = tile.muls %49, %50)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT U#1, U#3, mask=1111, last, ->U<2KB>   # 0x490ace93
  ; TROWEXPANDSUB  (%52 = tile.row_expand_sub %51, %m_4)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<2KB>        # 0x010ade93
  ; TEXP  (%e_1 = tile.exp %52)
BSTOP
BSTART.SFU TROWEXPANDMUL, FP32
  B.IOT U#1, U#4, mask=1111, last, ->U<2KB>   # 0x4d0ace93
  ; TROWEXPANDMUL  (%53 = tile.row_expand_mul %e_1, %inv)
BSTOP
BSTART.VEC TCVT, BF16
  B.IOT U#1, mask=1111, last, ->T<1KB>        # 0x010a5e13
  B.ASSEMBLE 0, 0, zero, 8, 0                 # 0x00801053
  ; TCVT  (%54 = tile.cast %53)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#7, mask=1111, last, ->U<2KB>        # 0x016ade93
  B.SUBVIEW 0, zero, 32, 5                    # 0x020002d3
  ; TMULS  (%57 = tile.muls %55, %56)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT U#1, U#7, mask=1111, last, ->U<2KB>   # 0x590ace93
  ; TROWEXPANDSUB  (%58 = tile.row_expand_sub %57, %m_4)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<2KB>        # 0x010ade93
  ; TEXP  (%e_2 = tile.exp %58)
BSTOP
BSTART.SFU TROWEXPANDMUL, FP32
  B.IOT U#1, U#8, mask=1111, last, ->U<2KB>   # 0x5d0ace93
  ; TROWEXPANDMUL  (%59 = tile.row_expand_mul %e_2, %inv)
BSTOP
BSTART.VEC TCVT, BF16
  B.IOT U#1, mask=1111, last, ->T<1KB>        # 0x010a5e13
  B.ASSEMBLE 0, 0, zero, 16, 0                # 0x01001053
  ; TCVT  (%60 = tile.cast %59)
BSTOP
BSTART.VEC TMULS, FP32
  B.IOT U#11, mask=1111, last, ->U<2KB>       # 0x01aade93
  B.SUBVIEW 0, zero, 48, 5                    # 0x030002d3
  ; TMULS  (%63 = tile.muls %61, %62)
BSTOP
BSTART.SFU TROWEXPANDSUB, FP32
  B.IOT U#1, U#11, mask=1111, last, ->U<2KB>  # 0x690ace93
  ; TROWEXPANDSUB  (%64 = tile.row_expand_sub %63, %m_4)
BSTOP
BSTART.SFU TEXP, FP32
  B.IOT U#1, mask=1111, last, ->U<2KB>        # 0x010ade93
  ; TEXP  (%e_3 = tile.exp %64)
BSTOP
BSTART.SFU TROWEXPANDMUL, FP32
  B.IOT U#1, U#12, mask=1111, last, ->U<2KB>  # 0x6d0ace93
  ; TROWEXPANDMUL  (%65 = tile.row_expand_mul %e_3, %inv)
BSTOP
BSTART.VEC TCVT, BF16
  B.IOT U#1, mask=1111, last, ->T<1KB>        # 0x010a5e13
  B.ASSEMBLE 0, 1, zero, 24, 0                # 0x01801853
  ; TCVT  (%66 = tile.cast %65)
BSTOP
BSTART.CUBE TMATMUL, FP32
  B.IOT T#1, U#16, mask=1111, last, ->T<8KB>  # 0x7c0bce13
  ; TMATMUL  (%68 = tile.matmul %67, %vt)
BSTOP
BSTART.TLSU TSTORE, FP32
  B.IOT T#1, mask=1111, last                  # 0x00085e13
  ; TSTORE  (tile.store %68, %o)
BSTOP
