//go:build !noasm && !gccgo && !safe

#include "textflag.h"

// func firstAtMost(cost, duals, area []float64, price, best float64) int
TEXT ·firstAtMost(SB), NOSPLIT, $0-96
	MOVQ   cost_base+0(FP), SI
	MOVQ   cost_len+8(FP), CX
	MOVQ   duals_base+24(FP), DI
	MOVQ   area_base+48(FP), DX
	MOVSD  price+72(FP), X0
	SHUFPD $0, X0, X0 // X0 = {price, price}
	MOVSD  best+80(FP), X1
	SHUFPD $0, X1, X1 // X1 = {best, best}
	XORQ   AX, AX     // t
	MOVQ   CX, BX
	ANDQ   $-4, BX    // the length in blocks of 4

block:
	// Four reduced costs, (cost - dual) - area*price in two pairs of
	// lanes; any at most best ends the blocks.
	CMPQ     AX, BX
	JGE      tail
	MOVUPS   (SI)(AX*8), X2
	MOVUPS   16(SI)(AX*8), X3
	MOVUPS   (DI)(AX*8), X4
	MOVUPS   16(DI)(AX*8), X5
	SUBPD    X4, X2
	SUBPD    X5, X3
	MOVUPS   (DX)(AX*8), X4
	MOVUPS   16(DX)(AX*8), X5
	MULPD    X0, X4
	MULPD    X0, X5
	SUBPD    X4, X2
	SUBPD    X5, X3
	CMPPD    X1, X2, $2 // X2 = X2 <= best (false for a NaN)
	CMPPD    X1, X3, $2
	ORPD     X3, X2
	MOVMSKPD X2, R8
	TESTQ    R8, R8
	JNZ      tail
	ADDQ     $4, AX
	JMP      block

tail:
	// One at a time: the first of a block with a hit, or the rest.
	CMPQ    AX, CX
	JGE     done
	MOVSD   (SI)(AX*8), X2
	SUBSD   (DI)(AX*8), X2
	MOVSD   (DX)(AX*8), X4
	MULSD   X0, X4
	SUBSD   X4, X2
	UCOMISD X2, X1 // best against the reduced cost; unordered sets CF
	JAE     done   // best >= reduced cost
	INCQ    AX
	JMP     tail

done:
	MOVQ AX, ret+88(FP)
	RET
